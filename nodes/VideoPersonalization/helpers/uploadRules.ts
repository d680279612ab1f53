/** The service's asset formats and size limits (docs/service-facts.md, "Assets"), checked before sending. */

export type AssetType = 'image' | 'video' | 'audio';

interface Format {
	label: string;
	mimeTypes: string[];
	extensions: string[];
}

interface TypeRule {
	maxBytes: number;
	limitLabel: string;
	formats: Format[];
}

/** The spec's "MB" is decimal: 10 MB = 10,000,000 bytes. */
const MB = 1_000_000;

export const ASSET_RULES: Record<AssetType, TypeRule> = {
	image: {
		maxBytes: 10 * MB,
		limitLabel: '10 MB',
		formats: [
			{
				label: 'JPG',
				mimeTypes: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
				extensions: ['jpg', 'jpeg'],
			},
			{ label: 'PNG', mimeTypes: ['image/png'], extensions: ['png'] },
			{ label: 'SVG', mimeTypes: ['image/svg+xml'], extensions: ['svg'] },
			{ label: 'WEBP', mimeTypes: ['image/webp'], extensions: ['webp'] },
		],
	},
	video: {
		maxBytes: 200 * MB,
		limitLabel: '200 MB',
		formats: [
			{ label: 'MP4', mimeTypes: ['video/mp4'], extensions: ['mp4', 'm4v'] },
			{ label: 'WEBM', mimeTypes: ['video/webm'], extensions: ['webm'] },
			{ label: 'MOV', mimeTypes: ['video/quicktime'], extensions: ['mov', 'qt'] },
		],
	},
	audio: {
		maxBytes: 50 * MB,
		limitLabel: '50 MB',
		formats: [
			{ label: 'MP3', mimeTypes: ['audio/mpeg', 'audio/mp3', 'audio/mpeg3'], extensions: ['mp3'] },
			{
				label: 'WAV',
				mimeTypes: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
				extensions: ['wav'],
			},
			{ label: 'AAC', mimeTypes: ['audio/aac', 'audio/x-aac', 'audio/aacp'], extensions: ['aac'] },
		],
	},
};

export const ASSET_TYPES = Object.keys(ASSET_RULES) as AssetType[];

export interface UploadFacts {
	fileName: string;
	mimeType: string;
	size: number;
	/** Set when the user chose the type instead of letting it be inferred. */
	requestedType?: AssetType;
}

export type UploadCheck =
	| { ok: true; type: AssetType; mimeType: string; format: string }
	| { ok: false; field: 'Type' | 'File'; problem: string };

function accepted(type: AssetType): string {
	return ASSET_RULES[type].formats.map((format) => format.label).join(', ');
}

/** Which type and format a file is, judged by MIME type, then by extension. */
export function identifyFormat(
	fileName: string,
	mimeType: string,
): { type: AssetType; format: Format } | undefined {
	const mime = mimeType.toLowerCase().split(';')[0].trim();
	const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1].toLowerCase() ?? '';
	for (const byMime of [true, false]) {
		for (const type of ASSET_TYPES) {
			const format = ASSET_RULES[type].formats.find((candidate) =>
				byMime ? candidate.mimeTypes.includes(mime) : candidate.extensions.includes(extension),
			);
			if (format) return { type, format };
		}
	}
	return undefined;
}

export function checkUpload(facts: UploadFacts): UploadCheck {
	const found = identifyFormat(facts.fileName, facts.mimeType);
	const described = `"${facts.fileName}" (${facts.mimeType || 'no MIME type'})`;
	const refuse = (field: 'Type' | 'File', problem: string): UploadCheck => ({
		ok: false,
		field,
		problem: `${described} ${problem}`,
	});
	if (!found) {
		const target = facts.requestedType
			? `Type ${facts.requestedType} accepts ${accepted(facts.requestedType)}`
			: ASSET_TYPES.map((type) => `${type}: ${accepted(type)}`).join('; ');
		return refuse('File', `is not a format the service accepts (${target})`);
	}
	const type = facts.requestedType ?? found.type;
	if (found.type !== type) {
		const article = type === 'video' ? 'a' : 'an';
		const accepts = `${type} accepts ${accepted(type)}`;
		return refuse(
			'Type',
			`is ${found.format.label}, which is not ${article} ${type} format; ${accepts}`,
		);
	}
	const rule = ASSET_RULES[type];
	if (facts.size > rule.maxBytes) {
		const limit = `${type} files may be at most ${rule.limitLabel}`;
		return refuse('File', `is ${(facts.size / MB).toFixed(1)} MB; ${limit}`);
	}
	if (facts.size === 0) return refuse('File', 'is empty');
	const mime = facts.mimeType.toLowerCase().split(';')[0].trim();
	return {
		ok: true,
		type,
		format: found.format.label,
		mimeType: found.format.mimeTypes.includes(mime) ? mime : found.format.mimeTypes[0],
	};
}
