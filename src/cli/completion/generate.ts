import type { Command } from 'commander';
import { argumentEntries, completionTable, HEADER, valueEntries, type CompletionNode } from './model.js';
import { powershell } from './powershell.js';

export type Shell = 'bash' | 'zsh' | 'fish' | 'powershell';
export const SHELLS: Shell[] = ['bash', 'zsh', 'fish', 'powershell'];

/** POSIX-shell functions over the table: words after a path, values of `path --option`, of a path's argument, and `@kind` asked of the server. */
function shellFunctions(nodes: CompletionNode[]): string {
  const caseOf = (name: string, entries: Array<[string, string]>) =>
    `${name}() {\n  case "$1" in\n${entries.map(([k, v]) => `    "${k}") echo "${v}" ;;`).join('\n')}\n    *) return 1 ;;\n  esac\n}`;
  return [
    caseOf(
      '__facet_words',
      nodes.map((n) => [n.path, n.words.join(' ')]),
    ),
    caseOf('__facet_values', valueEntries(nodes)),
    caseOf('__facet_argument', argumentEntries(nodes)),
    // Ids come from the server of the current profile, with the CLI's short completion timeout; any failure completes nothing.
    '__facet_expand() {\n  case "$1" in\n    @*) facet __complete "${1#@}" 2>/dev/null ;;\n    *) echo "$1" ;;\n  esac\n}',
  ].join('\n\n');
}

function bash(nodes: CompletionNode[]): string {
  return `${HEADER}
# bash: source this file, or copy it to /etc/bash_completion.d/facet
${shellFunctions(nodes)}

_facet() {
  local cur prev path w i words more
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  path=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -*) continue ;; esac
    if __facet_words "\${path:+$path }$w" >/dev/null; then path="\${path:+$path }$w"; fi
  done
  if [[ "$prev" == --* ]] && words="$(__facet_values "\${path:+$path }$prev")"; then
    words="$(__facet_expand "$words")"
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return
  fi
  words="$(__facet_words "$path")"
  if [[ "$cur" != -* ]] && more="$(__facet_argument "$path")"; then words="$words $(__facet_expand "$more")"; fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _facet facet
`;
}

function zsh(nodes: CompletionNode[]): string {
  return `#compdef facet
${HEADER}
# zsh: put this file on your $fpath as _facet
${shellFunctions(nodes)}

_facet() {
  local path="" w i values more prev="\${words[CURRENT-1]}"
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    [[ "$w" == -* ]] && continue
    if __facet_words "\${path:+$path }$w" >/dev/null; then path="\${path:+$path }$w"; fi
  done
  local -a candidates
  if [[ "$prev" == --* ]] && values="$(__facet_values "\${path:+$path }$prev")"; then
    values="$(__facet_expand "$values")"
    candidates=(\${=values})
    compadd -- $candidates
    return
  fi
  candidates=(\${=$(__facet_words "$path")})
  if [[ "\${words[CURRENT]}" != -* ]] && more="$(__facet_argument "$path")"; then candidates+=(\${=$(__facet_expand "$more")}); fi
  compadd -- $candidates
}
compdef _facet facet
`;
}

function fish(nodes: CompletionNode[]): string {
  const caseOf = (name: string, entries: Array<[string, string]>) =>
    `function ${name}\n  switch "$argv[1]"\n${entries.map(([k, v]) => `    case '${k}'\n      echo ${v}`).join('\n')}\n    case '*'\n      return 1\n  end\nend`;
  return `${HEADER}
# fish: copy this file to ~/.config/fish/completions/facet.fish
${caseOf(
  '__facet_words',
  nodes.map((n) => [n.path, n.words.join(' ')]),
)}

${caseOf('__facet_values', valueEntries(nodes))}

${caseOf('__facet_argument', argumentEntries(nodes))}

function __facet_expand
  if string match -q -- '@*' $argv[1]
    facet __complete (string sub -s 2 -- $argv[1]) 2>/dev/null
  else
    string split ' ' -- $argv[1]
  end
end

function __facet_complete
  set -l tokens (commandline -opc)
  set -l current (commandline -ct)
  set -l path ''
  for w in $tokens[2..-1]
    if string match -q -- '-*' $w
      continue
    end
    set -l next (string trim -- "$path $w")
    if __facet_words "$next" >/dev/null
      set path $next
    end
  end
  set -l prev $tokens[-1]
  if string match -q -- '--*' $prev
    set -l values (__facet_values (string trim -- "$path $prev"))
    and begin
      __facet_expand $values
      return
    end
  end
  __facet_words "$path" | string split ' '
  if not string match -q -- '-*' "$current"
    set -l more (__facet_argument "$path")
    and __facet_expand $more
  end
end

complete -c facet -f -a '(__facet_complete)'
`;
}

export function generate(program: Command, shell: Shell): string {
  const nodes = completionTable(program);
  if (shell === 'bash') return bash(nodes);
  if (shell === 'zsh') return zsh(nodes);
  if (shell === 'fish') return fish(nodes);
  return powershell(nodes);
}

export function fileName(shell: Shell): string {
  return { bash: 'facet.bash', zsh: '_facet', fish: 'facet.fish', powershell: 'facet.ps1' }[shell];
}
