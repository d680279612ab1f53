import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.mts';

/** Starts a quiet sandbox for one test file and stops it afterwards. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ quiet: true, ...options });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	return () => {
		if (!sandbox) throw new Error('the sandbox is not started yet');
		return sandbox;
	};
}

/** Credential data pointing at a sandbox with one of its keys. */
export function credentialsFor(
	sandbox: Sandbox,
	apiKey: string = sandbox.keys.user,
): ICredentialDataDecryptedObject {
	return { apiKey, baseUrl: sandbox.baseUrl };
}

/** The first bytes of a file of each format of spec 2.4 (its well-known signature), by extension. */
const SIGNATURES: Record<string, string> = {
	jpg: '\xff\xd8\xff\xe0\x00\x10JFIF\x00',
	png: '\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR',
	svg: '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"></svg>\n',
	webp: 'RIFF\x00\x10\x00\x00WEBPVP8 ',
	mp4: '\x00\x00\x00\x18ftypisom\x00\x00\x02\x00',
	webm: '\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01',
	mov: '\x00\x00\x00\x14ftypqt  \x00\x00\x02\x00',
	mp3: 'ID3\x04\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x64',
	wav: 'RIFF\x24\x10\x00\x00WAVEfmt ',
	aac: '\xff\xf1\x50\x80\x02\x1f\xfc',
};

/**
 * `size` bytes of a file of the format its name's extension gives: its signature (as the upload
 * checks it), then filler; a name of another format gets filler only.
 */
export function mediaBytes(fileName: string, size = 4096, seed = 7): Buffer {
	const buffer = Buffer.alloc(size);
	for (let index = 0; index < size; index++) buffer[index] = (index * 31 + seed) & 0xff;
	const extension = /\.(\w+)$/.exec(fileName)?.[1].toLowerCase() ?? '';
	Buffer.from(SIGNATURES[extension] ?? '', 'latin1').copy(buffer);
	return buffer;
}
