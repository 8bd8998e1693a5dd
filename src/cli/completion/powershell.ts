import { argumentEntries, HEADER, valueEntries, type CompletionNode } from './model.js';

/** A PowerShell string literal: single quotes, with a quote doubled. */
const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

function hashtable(entries: Array<[string, string]>): string {
  return `@{\n${entries.map(([k, v]) => `  ${quote(k)} = ${quote(v)}`).join('\n')}\n}`;
}

/**
 * A native argument completer (PowerShell 5.1 and 7): the same table as the POSIX scripts, walked
 * over the command line's elements; ids come from `facet __complete KIND`.
 */
export function powershell(nodes: CompletionNode[]): string {
  return `${HEADER}
# PowerShell: add \`. path\\to\\facet.ps1\` to your $PROFILE
$__facetWords = ${hashtable(nodes.map((n) => [n.path, n.words.join(' ')]))}
$__facetValues = ${hashtable(valueEntries(nodes))}
$__facetArgument = ${hashtable(argumentEntries(nodes))}

Register-ArgumentCompleter -Native -CommandName facet, facet.cmd -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $elements = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
  if ($wordToComplete -ne '' -and $elements.Count -gt 0) { $elements = @($elements | Select-Object -SkipLast 1) }
  $path = ''
  foreach ($w in $elements) {
    if ($w.StartsWith('-')) { continue }
    $next = if ($path) { "$path $w" } else { $w }
    if ($__facetWords.ContainsKey($next)) { $path = $next }
  }
  $prev = if ($elements.Count -gt 0) { $elements[-1] } else { '' }
  $key = if ($path) { "$path $prev" } else { $prev }
  $expand = { param($v) if ($v.StartsWith('@')) { @(facet __complete $v.Substring(1) 2>$null) } else { $v -split ' ' } }
  if ($prev.StartsWith('--') -and $__facetValues.ContainsKey($key)) {
    $candidates = & $expand $__facetValues[$key]
  } else {
    $candidates = @($__facetWords[$path] -split ' ')
    if (-not $wordToComplete.StartsWith('-') -and $__facetArgument.ContainsKey($path)) { $candidates += & $expand $__facetArgument[$path] }
  }
  $candidates | Where-Object { $_ -and $_.StartsWith($wordToComplete) } | ForEach-Object {
    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
  }
}
`;
}
