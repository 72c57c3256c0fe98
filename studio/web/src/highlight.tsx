// A light highlighter for one line of TypeScript in the source viewer:
// comments, strings, keywords and numbers, nothing that needs a parser
// (a comment or a template spanning lines shows plain past its first line).

import type { ComponentChild } from 'preact';

const TOKEN = /(\/\/.*$)|('(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?|`(?:[^`\\]|\\.)*`?)|\b(export|import|from|const|let|var|async|await|return|if|else|for|of|in|new|function|typeof|null|undefined|true|false|throw|try|catch)\b|\b(\d+(?:\.\d+)?)\b/g;
const CLASS = ['', 'tk-comment', 'tk-string', 'tk-keyword', 'tk-number'];

export function highlight(line: string): ComponentChild[] {
  const out: ComponentChild[] = [];
  let at = 0;
  for (const m of line.matchAll(TOKEN)) {
    const i = m.index ?? 0;
    if (i > at) out.push(line.slice(at, i));
    const kind = m.slice(1).findIndex((g) => g !== undefined) + 1;
    out.push(<span class={CLASS[kind]}>{m[0]}</span>);
    at = i + m[0].length;
  }
  if (at < line.length) out.push(line.slice(at));
  return out;
}
