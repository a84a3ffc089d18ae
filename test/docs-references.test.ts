// The repository's text points only at itself: every Markdown file it names exists in it, and
// every relative link of its docs reaches a file (and heading) inside it. A reader, or a user of
// a published package, has nothing but the repository to follow.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Not the project's text: installed packages, build output, runtime data, recorded payloads. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'data', 'recorded']);
const TEXT_EXTENSIONS = new Set(['.ts', '.md', '.yaml', '.yml', '.json', '.sh', '']);
const SKIPPED_FILES = new Set(['package-lock.json']);

function textFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) found.push(...textFiles(path));
    } else if (TEXT_EXTENSIONS.has(extname(name)) && !SKIPPED_FILES.has(name)) {
      found.push(path);
    }
  }
  return found;
}

const FILES = textFiles(ROOT);
const MARKDOWN = FILES.filter((f) => f.endsWith('.md'));

/** `file:line: text` for each line of `file` where `pattern` finds something `accept` refuses. */
function offences(file: string, pattern: RegExp, accept: (match: RegExpExecArray) => boolean): string[] {
  const found: string[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    for (const match of line.matchAll(pattern)) {
      if (!accept(match)) found.push(`${relative(ROOT, file)}:${i + 1}: ${match[0]}`);
    }
  });
  return found;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading === null) continue;
    const base = headingAnchor(heading[1]!);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Whether a relative Markdown link from `file` reaches a path, and heading, inside the repository. */
function linkResolves(file: string, target: string): boolean {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
  if (dest !== ROOT && !dest.startsWith(ROOT + sep)) return false;
  if (!existsSync(dest)) return false;
  if (anchor === undefined || anchor === '') return true;
  return dest.endsWith('.md') && anchorsOf(dest).has(anchor);
}

describe('references in the repository point inside it', () => {
  it('names only Markdown files that exist in the repository', () => {
    const known = new Set(MARKDOWN.map((f) => basename(f)));
    // A Markdown file name, bare or with a path: `README.md`, `docs/api.md`, `../docs/api.md`.
    const named = /[\w./-]*[\w-]\.md\b/g;
    const unknown = FILES.flatMap((f) => offences(f, named, (m) => known.has(basename(m[0]))));
    expect(unknown).to.deep.equal([]);
  });

  it('has docs whose relative links reach a file, and a heading, inside the repository', () => {
    // Inline links whose target is not a URL: `[text](path#anchor)`, `[text](#anchor)`.
    const link = /\]\((?!https?:|mailto:)([^)\s]+)\)/g;
    const broken = MARKDOWN.flatMap((f) => offences(f, link, (m) => linkResolves(f, m[1]!)));
    expect(broken).to.deep.equal([]);
  });

  it('reads headings as GitHub anchors them', () => {
    expect(headingAnchor('Measurements behind the hot-path decisions')).to.equal('measurements-behind-the-hot-path-decisions');
    expect(headingAnchor('`POST /v1/responses/compact`')).to.equal('post-v1responsescompact');
    expect(headingAnchor('Errors')).to.equal('errors');
  });
});
