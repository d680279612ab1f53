import type { IDataObject } from 'n8n-workflow';

/** How values in the service's answers are read where the interface leaves them open. */

/** A whole number of 0 or more, as counts and page numbers in the service's answers are. */
export function isCount(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** An optional text: trimmed, and undefined when empty; a number reads as its text. */
export function optionalText(value: unknown): string | undefined {
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/**
 * The created video, wherever the service put it: the answer to a create is not described
 * (docs/service-facts.md), so the body itself, `data` and `video` are tried in turn.
 */
export function createdVideo(body: IDataObject): IDataObject | undefined {
	// Only an object has an `id` (null, text and arrays give undefined).
	const candidates = [body, body.data, body.video] as Array<IDataObject | null | undefined>;
	return candidates.find((video): video is IDataObject =>
		['string', 'number'].includes(typeof video?.id),
	);
}
