/** The service's asset formats and size limits (docs/service-facts.md, "Assets"), checked before sending. */

export type AssetType = 'image' | 'video' | 'audio';

interface Format {
	label: string;
	mimeTypes: string[];
	extensions: string[];
}

interface TypeRule {
	/** The spec's "MB" is decimal: 10 MB = 10,000,000 bytes. */
	maxMB: number;
	formats: Format[];
}

const MB = 1_000_000;

export const ASSET_RULES: Record<AssetType, TypeRule> = {
	image: {
		maxMB: 10,
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
		maxMB: 200,
		formats: [
			{ label: 'MP4', mimeTypes: ['video/mp4'], extensions: ['mp4', 'm4v'] },
			{ label: 'WEBM', mimeTypes: ['video/webm'], extensions: ['webm'] },
			{ label: 'MOV', mimeTypes: ['video/quicktime'], extensions: ['mov', 'qt'] },
		],
	},
	audio: {
		maxMB: 50,
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
	/** The file's first bytes (a few KB), checked against the format its MIME type and name give. */
	head?: Buffer;
}

export type UploadCheck =
	| { ok: true; type: AssetType; mimeType: string; format: string }
	| { ok: false; field: 'Type' | 'File'; problem: string };

/** The formats a type accepts: "JPG, PNG, SVG, WEBP". */
export function accepted(type: AssetType): string {
	return ASSET_RULES[type].formats.map((format) => format.label).join(', ');
}

function findFormat(matches: (format: Format) => boolean) {
	for (const type of ASSET_TYPES) {
		const format = ASSET_RULES[type].formats.find(matches);
		if (format) return { type, format };
	}
	return undefined;
}

const byExtension = (fileName: string) => {
	const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1].toLowerCase() ?? '';
	return findFormat((format) => format.extensions.includes(extension));
};

/** Which type and format a file is, judged by MIME type, then by extension. */
export function identifyFormat(fileName: string, mimeType: string) {
	const mime = mimeType.toLowerCase().split(';')[0].trim();
	return findFormat((format) => format.mimeTypes.includes(mime)) ?? byExtension(fileName);
}

/**
 * The formats of spec 2.4 a file's first bytes show, the likeliest first ([] for none): their
 * well-known signatures. MP4 and MOV share one container; an ID3 tag may start MP3 or AAC.
 */
export function contentFormats(head: Buffer): string[] {
	const text = head.toString('latin1');
	const at = (offset: number, ascii: string) => text.startsWith(ascii, offset);
	// MPEG audio frame sync (11 bits); its layer bits are 0 in an AAC ADTS header.
	const layer = head[0] === 0xff && head[1] >= 0xe0 ? (head[1] >> 1) & 3 : -1;
	if (at(0, 'ID3')) {
		const end = 10 + ((head[6] << 21) | (head[7] << 14) | (head[8] << 7) | head[9]);
		return end + 4 <= head.length ? contentFormats(head.subarray(end)) : ['MP3', 'AAC'];
	}
	const signatures: Array<[boolean, string[]]> = [
		[at(0, '\xff\xd8\xff'), ['JPG']],
		[at(0, '\x89PNG\r\n\x1a\n'), ['PNG']],
		[at(0, 'RIFF') && at(8, 'WEBP'), ['WEBP']],
		[at(0, 'RIFF') && at(8, 'WAVE'), ['WAV']],
		[at(0, '\x1a\x45\xdf\xa3'), ['WEBM']],
		[at(4, 'ftypM4A'), ['AAC']],
		[at(4, 'ftypqt'), ['MOV', 'MP4']],
		[at(4, 'ftyp') || /^(moov|mdat|wide|free|skip|pnot)$/.test(text.slice(4, 8)), ['MP4', 'MOV']],
		[at(0, 'ADIF') || layer === 0, ['AAC']],
		[layer > 0, ['MP3']],
		[/^(\xef\xbb\xbf)?\s*</.test(text) && /<svg[\s>]/i.test(text), ['SVG']],
	];
	return signatures.find(([matches]) => matches)?.[1] ?? [];
}

/** A file's first 8 bytes, in hex and as text: what they are when they are no format of the spec. */
function firstBytes(head: Buffer): string {
	const bytes = head.subarray(0, 8);
	const text = bytes.toString('latin1').replace(/[^\x20-\x7e]/g, '.');
	return `${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(' ')}: "${text}"`;
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
		const problem = `is ${found.format.label}, which is not ${article} ${type} format; ${type} accepts ${accepted(type)}`;
		return refuse('Type', problem);
	}
	const { maxMB } = ASSET_RULES[type];
	if (facts.size > maxMB * MB) {
		const megabytes = (facts.size / MB).toFixed(1);
		return refuse('File', `is ${megabytes} MB; ${type} files may be at most ${maxMB} MB`);
	}
	if (facts.size === 0) return refuse('File', 'is empty');
	const shown = facts.head ? contentFormats(facts.head) : undefined;
	const claimed = [found.format, byExtension(facts.fileName)?.format].find(
		(format) => shown && format && !shown.includes(format.label),
	);
	if (shown && claimed) {
		const problem = shown.length
			? `is ${shown[0]} by its first bytes, not the ${claimed.label} its name or type says`
			: `is not ${claimed.label} by its first bytes (${firstBytes(facts.head as Buffer)}), nor any format the service accepts`;
		return refuse('File', problem);
	}
	const mime = facts.mimeType.toLowerCase().split(';')[0].trim();
	return {
		ok: true,
		type,
		format: found.format.label,
		mimeType: found.format.mimeTypes.includes(mime) ? mime : found.format.mimeTypes[0],
	};
}
