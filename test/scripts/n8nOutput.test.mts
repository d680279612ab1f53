import { parseRawOutput } from '../../scripts/lib/n8n.mjs';

// `n8n execute --rawOutput` prints its JSON document among log lines; the e2e tests read it.
describe('parseRawOutput', () => {
	const run = { data: { resultData: { runData: { Node: [{ text: 'a } { " [ ] \\ b' }] } } } };

	it('finds the document between log lines, including ones that start with "{"', () => {
		const stdout = [
			'Loading nodes',
			'{not json',
			JSON.stringify(run, null, 2),
			'Task runner stopped {code: 0}',
			'{"later": true}',
			'',
		].join('\n');
		expect(parseRawOutput(stdout)).toEqual(run);
	});

	it('reads a document that ends the output without a newline', () => {
		expect(parseRawOutput(`Execution was successful:\n${JSON.stringify(run)}`)).toEqual(run);
	});

	it('says so, with the output, when there is no document', () => {
		expect(() => parseRawOutput('Error executing workflow\n{ unbalanced')).toThrow(
			/No JSON document in the output of n8n execute:\nError executing workflow/,
		);
	});
});
