import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fieldError, positiveOption } from '../common';

// Inside the Options collection: `/waitForCompletion` is the root parameter, other names are sibling options.
// n8n shows an option as soon as one condition's value is an expression, so the sibling conditions go first.
const whenWaiting = { show: { '/waitForCompletion': [true] } };

/** Download Video and its Video Binary Property; so for Thumbnail (readWaitSettings reads them). */
function downloadOptions(
	file: 'Video' | 'Thumbnail',
	what: string,
	defaultProperty: string,
	content: string,
): INodeProperties[] {
	return [
		{
			displayName: `Download ${file}`,
			name: `download${file}`,
			displayOptions: whenWaiting,
			type: 'boolean',
			default: false,
			description: `Whether to download the ${what} of each published video as binary data (with Wait for Completion)`,
		},
		{
			displayName: `${file} Binary Property`,
			name: `${file.toLowerCase()}BinaryProperty`,
			displayOptions: { show: { [`download${file}`]: [true], ...whenWaiting.show } },
			type: 'string',
			default: defaultProperty,
			description: `Name of the binary property to put the ${content} in`,
		},
	];
}

export const waitOptions: INodeProperties[] = [
	{
		displayName: 'Wait Timeout (Minutes)',
		name: 'waitTimeout',
		displayOptions: whenWaiting,
		type: 'number',
		// No numberPrecision: the editor shows 15 as "15", and fractions (0.5) still work.
		typeOptions: { minValue: 0.01 },
		default: 15,
		description: 'With Wait for Completion: how long to wait for the videos to finish rendering',
	},
	{
		displayName: 'Check Every (Seconds)',
		name: 'pollInterval',
		displayOptions: whenWaiting,
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 10,
		description: 'With Wait for Completion: time between two checks of the video list',
	},
	...downloadOptions('Video', 'rendered MP4', 'data', 'MP4'),
	...downloadOptions('Thumbnail', 'JPG thumbnail', 'thumbnail', 'thumbnail'),
];

/** The wait options of one item; they are checked only when that item waits. */
export function readWaitSettings(ctx: IExecuteFunctions, itemIndex: number, listTimeoutMs: number) {
	const wait = ctx.getNodeParameter('waitForCompletion', itemIndex, false) === true;
	if (!wait) return { wait, timeoutMs: 0, intervalMs: 0, listTimeoutMs };
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	// Download Video puts it in Video Binary Property (videoBinaryProperty); so for Thumbnail.
	const binaryProperty = (file: 'Video' | 'Thumbnail', fallback: string) => {
		if (options[`download${file}`] !== true) return undefined;
		const value = options[`${file.toLowerCase()}BinaryProperty`];
		const property = value === undefined ? fallback : value;
		if (typeof property !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(property)) {
			const message = `${file} Binary Property: must be a name made of letters, digits, _ . or -`;
			throw fieldError(ctx, itemIndex, message);
		}
		return property;
	};
	const minutesProblem = 'Wait Timeout (Minutes): must be a number above 0';
	const minutes = positiveOption(ctx, itemIndex, 'waitTimeout', 15, minutesProblem);
	const secondsProblem = 'Check Every (Seconds): must be a number above 0';
	const seconds = positiveOption(ctx, itemIndex, 'pollInterval', 10, secondsProblem);
	// listTimeoutMs: the item's Timeout option, for each check of the list.
	return {
		wait,
		timeoutMs: minutes * 60_000,
		intervalMs: seconds * 1000,
		videoProperty: binaryProperty('Video', 'data'),
		thumbnailProperty: binaryProperty('Thumbnail', 'thumbnail'),
		listTimeoutMs,
	};
}

/** How one item waits, read and checked by Create before the video is made. */
export type WaitSettings = ReturnType<typeof readWaitSettings>;
