// Workflows the queue-mode test and benchmark build for themselves (the examples come from
// examples/). Plain n8n workflow JSON: nodes that ship with n8n plus this package's.
import type { WorkflowJson } from '../../scripts/lib/n8n.mjs';

type Credential = { id: string; name: string };

const credentialsOf = (credential: Credential) => ({
	videoPersonalizationApi: { id: credential.id, name: credential.name },
});

/**
 * Download a file, wait for a go-ahead, upload it as an asset. Started by a production webhook
 * (`POST /webhook/<path>` with `{ url, name }`), so it runs on a worker; the Wait node (resume
 * on webhook call) parks the execution in the database, and whichever worker takes it up after
 * the go-ahead reads the file back from n8n's binary store. "Resume URL" records where the
 * go-ahead goes ($execution.resumeUrl); the Merge node hands the file on after the Wait.
 */
export function downloadWaitUpload(path: string, credential: Credential): Omit<WorkflowJson, 'id'> {
	return {
		name: `Queue test: download, wait, upload (${path})`,
		nodes: [
			{
				name: 'Start',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
				webhookId: path,
				position: [0, 0],
			},
			{
				name: 'Download',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					url: '={{ $json.body.url }}',
					options: {
						response: { response: { responseFormat: 'file', outputPropertyName: 'data' } },
						timeout: 600_000,
					},
				},
				position: [220, 0],
			},
			{
				name: 'Resume URL',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				parameters: {
					assignments: {
						assignments: [
							{
								id: 'resume-url',
								name: 'resume_url',
								value: '={{ $execution.resumeUrl }}',
								type: 'string',
							},
							{
								id: 'asset-name',
								name: 'asset_name',
								value: "={{ $('Start').item.json.body.name }}",
								type: 'string',
							},
						],
					},
					// Other fields and the binary "data" pass through (Set 3.4 keeps binaries with them).
					includeOtherFields: true,
					options: {},
				},
				position: [440, 0],
			},
			{
				name: 'Wait for the go-ahead',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				parameters: { resume: 'webhook', httpMethod: 'POST', options: {} },
				webhookId: `${path}-resume`,
				position: [660, 0],
			},
			{
				// The Wait node puts out what the go-ahead call sent; the file comes from before it.
				name: 'The file again',
				type: 'n8n-nodes-base.merge',
				typeVersion: 3.2,
				parameters: {
					mode: 'chooseBranch',
					chooseBranchMode: 'waitForAll',
					output: 'specifiedInput',
					useDataOfInput: 2,
				},
				position: [880, 100],
			},
			{
				name: 'Upload',
				type: 'n8n-nodes-video-personalization.videoPersonalization',
				typeVersion: 1,
				parameters: {
					resource: 'asset',
					operation: 'upload',
					binaryPropertyName: 'data',
					name: "={{ $('Resume URL').item.json.asset_name }}",
					assetType: 'video',
					tags: 'queue-test',
					options: {},
				},
				credentials: credentialsOf(credential),
				position: [1100, 0],
			},
		],
		connections: {
			Start: { main: [[{ node: 'Download', type: 'main', index: 0 }]] },
			Download: { main: [[{ node: 'Resume URL', type: 'main', index: 0 }]] },
			'Resume URL': {
				main: [
					[
						{ node: 'Wait for the go-ahead', type: 'main', index: 0 },
						{ node: 'The file again', type: 'main', index: 1 },
					],
				],
			},
			'Wait for the go-ahead': { main: [[{ node: 'The file again', type: 'main', index: 0 }]] },
			'The file again': { main: [[{ node: 'Upload', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}
