/**
 * Issue 30: a message a user reports is found by grepping a few of its words. The published code
 * writes each sentence whole, so no text is glued together from pieces with `+` (where a grep for
 * words that span the join finds nothing). Fill-ins (`${action}`) are fine; concatenated literals
 * are not. The credential's Test is an n8n expression (code, not a message), so credentials/ is
 * left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const NODE = join(ROOT, 'nodes');

const isText = (node: ts.Node) =>
	ts.isStringLiteral(node) ||
	ts.isNoSubstitutionTemplateLiteral(node) ||
	ts.isTemplateExpression(node);

/** Every `text + text` in a file, as "file:line". */
function gluedText(file: string): string[] {
	const source = ts.createSourceFile(
		file,
		readFileSync(file, 'utf8'),
		ts.ScriptTarget.ES2022,
		true,
	);
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		if (
			ts.isBinaryExpression(node) &&
			node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
			(isText(node.left) || isText(node.right))
		) {
			const { line } = source.getLineAndCharacterOfPosition(node.getStart());
			found.push(`${file.slice(ROOT.length + 1)}:${line + 1}`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

describe('messages are written whole (issue 30)', () => {
	const files = readdirSync(NODE, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts'))
		.map((file) => join(NODE, file));

	it('finds the published code', () => {
		expect(files.length).toBeGreaterThan(40);
	});

	it('no text in nodes/ is glued together with +', () => {
		expect(files.flatMap(gluedText)).toEqual([]);
	});

	it('the check sees glued text (written across two lines, or a literal and a value)', () => {
		const sample = join(ROOT, 'test', 'structure', 'fixtures', 'glued.ts.txt');
		expect(gluedText(sample).map((at) => at.split(':')[1])).toEqual(['2', '4']);
	});
});
