
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'gwctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'gwctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'gwctl' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check manifests against the gateway API schemas')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'List the rule codes, or explain one')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema gwctl checks a kind against')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show the effective policy of a Gateway, listener, route, rule, backend, port or provider, field by field, with the policy each field came from')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print what the controller would program: Envoy xDS or the AI data plane''s resources, and the status conditions, per Gateway')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what changes for traffic between two sets of manifests: findings, effective policy and rendered configuration, compared on their effect, not their text')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'Draw the topology: Gateways, listeners, routes (attached and refused), rules, backends, AI providers and the policies on each, with their predicted status and error counts')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script, or write all of them to a directory')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write man pages (one for gwctl and one per subcommand) to a directory')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'Run the language server for editors (Language Server Protocol on stdin/stdout): the workspace''s findings as you type, hover, definition, references, symbols, completion')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gwctl;lint' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Lowest severity that makes the exit status 1')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Lint only files matching this glob (relative to a directory argument; repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip files matching this glob (relative to a directory argument; repeatable)')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'The control-plane chart''s values file, checked against the installation values')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'CustomResourceDefinition file or directory to check objects against (repeatable); a CRD of a built-in kind replaces the built-in schema')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Also write the report in --format to FILE; the terminal then gets the human format')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory')
            [CompletionResult]::new('--max-alias-nodes', '--max-alias-nodes', [CompletionResultType]::ParameterName, 'Nodes that YAML alias expansion may add to one file (all files together: 100 times as many)')
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Nesting depth of mappings and sequences (at most 1000)')
            [CompletionResult]::new('--max-document-bytes', '--max-document-bytes', [CompletionResultType]::ParameterName, 'Bytes in one document')
            [CompletionResult]::new('--max-documents', '--max-documents', [CompletionResultType]::ParameterName, 'Documents in one file')
            [CompletionResult]::new('--max-total-bytes', '--max-total-bytes', [CompletionResultType]::ParameterName, 'Bytes of all input files together; files beyond it are skipped with a finding')
            [CompletionResult]::new('--max-regex-size', '--max-regex-size', [CompletionResultType]::ParameterName, 'Compiled size of a regular expression checked in a value (bytes of the regex program)')
            [CompletionResult]::new('--max-cel-length', '--max-cel-length', [CompletionResultType]::ParameterName, 'Bytes of one CEL expression (data-plane expression fields and rules of --crds CRDs)')
            [CompletionResult]::new('--max-cel-depth', '--max-cel-depth', [CompletionResultType]::ParameterName, 'Nesting of one CEL expression: brackets, plus operators, selections and ternaries chained inside each')
            [CompletionResult]::new('--strict-refs', '--strict-refs', [CompletionResultType]::ParameterName, 'Report each reference to a kind with no object in the inputs (no Services at all...) as missing, instead of one note per kind')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Human format: omit the summary line. Also hides the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Human format: omit the summary line. Also hides the progress bar')
            [CompletionResult]::new('--show-suppressed', '--show-suppressed', [CompletionResultType]::ParameterName, 'List the findings that suppressions hid, marked as suppressed')
            [CompletionResult]::new('--statistics', '--statistics', [CompletionResultType]::ParameterName, 'Count findings per code, most frequent first (human: a table; json: summary.statistics; other formats: a table on stderr)')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Keep running: lint again whenever a YAML or JSON file under the paths changes, clearing the terminal before each report. Ctrl-C ends it (exit status 0)')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Apply the safe fixes that findings offer (`gwctl rules` says which rules have one), in place: files are rewritten atomically, only when changed; stdin''s fixed text is printed on stdout (the report then goes to stderr). The report lists the findings that remain')
            [CompletionResult]::new('--unsafe-fixes', '--unsafe-fixes', [CompletionResultType]::ParameterName, 'Apply the unsafe fixes too (guesses: a reference renamed to the closest object, a generated ReferenceGrant); implies --fix unless --diff is given')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Print the fixes as a unified diff (for `git apply`) instead of writing them; exit status 1 when there is something to fix')
            [CompletionResult]::new('--fix-only', '--fix-only', [CompletionResultType]::ParameterName, 'Apply the fixes and report nothing else (only the summary on stderr); exit status 0 unless a file could not be written. Implies --fix')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;rules' {
            [CompletionResult]::new('--markdown', '--markdown', [CompletionResultType]::ParameterName, 'Print every rule with its explanation and examples as Markdown (docs/rules.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;schema' {
            [CompletionResult]::new('--api-version', '--api-version', [CompletionResultType]::ParameterName, 'GROUP/VERSION of the kind, when several groups or versions have it (default: the newest served version of the only group that has it)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;explain' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the target')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the target')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'The control-plane chart''s values file (its `policyMerge` applies)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'With KIND/*: objects of every namespace')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'With KIND/*: objects of every namespace')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;render' {
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'Only this Gateway, as NAMESPACE/NAME (or NAME in namespace `default`); every Gateway when unset')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Which resources to print')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--validation-level', '--validation-level', [CompletionResultType]::ParameterName, 'What an invalid route rule does: `standard` renders it as a direct response 500 and passes what only the proxy rejects through; `strict` adds the proxy''s checks, drops a rule whose matcher the proxy rejects and answers 500 for the rest (default: the values file''s `validation.level`, else standard). Neither refuses a Gateway')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'The control-plane chart''s values file (`validation.level`, `policyMerge`)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Check every rendered Envoy resource against Envoy''s proto definitions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;diff' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'A path of BASE (repeatable), with --head, for sets of paths')
            [CompletionResult]::new('--head', '--head', [CompletionResultType]::ParameterName, 'A path of HEAD (repeatable)')
            [CompletionResult]::new('--git', '--git', [CompletionResultType]::ParameterName, 'Take BASE from this git revision of HEAD''s paths (a commit, branch or tag)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit with 1 when a finding at or above this severity is introduced')
            [CompletionResult]::new('--max-chars', '--max-chars', [CompletionResultType]::ParameterName, 'Markdown: the longest comment to print; what does not fit is counted instead')
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'Only this Gateway''s rendered configuration, as NAMESPACE/NAME (or NAME in namespace `default`)')
            [CompletionResult]::new('--validation-level', '--validation-level', [CompletionResultType]::ParameterName, 'What an invalid route rule renders as on both sides (see `gwctl render`)')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'The control-plane chart''s values file, for both sides')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory')
            [CompletionResult]::new('--max-alias-nodes', '--max-alias-nodes', [CompletionResultType]::ParameterName, 'Nodes that YAML alias expansion may add to one file (all files together: 100 times as many)')
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Nesting depth of mappings and sequences (at most 1000)')
            [CompletionResult]::new('--max-document-bytes', '--max-document-bytes', [CompletionResultType]::ParameterName, 'Bytes in one document')
            [CompletionResult]::new('--max-documents', '--max-documents', [CompletionResultType]::ParameterName, 'Documents in one file')
            [CompletionResult]::new('--max-total-bytes', '--max-total-bytes', [CompletionResultType]::ParameterName, 'Bytes of all input files together; files beyond it are skipped with a finding')
            [CompletionResult]::new('--max-regex-size', '--max-regex-size', [CompletionResultType]::ParameterName, 'Compiled size of a regular expression checked in a value (bytes of the regex program)')
            [CompletionResult]::new('--max-cel-length', '--max-cel-length', [CompletionResultType]::ParameterName, 'Bytes of one CEL expression (data-plane expression fields and rules of --crds CRDs)')
            [CompletionResult]::new('--max-cel-depth', '--max-cel-depth', [CompletionResultType]::ParameterName, 'Nesting of one CEL expression: brackets, plus operators, selections and ternaries chained inside each')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit with 1 when something changes in effect, like `git diff --exit-code`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;graph' {
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'Only this Gateway''s component (what it reaches and the policies and GatewayClass on those), as NAMESPACE/NAME (or NAME in namespace `default`)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Only the objects of this namespace, and the nodes their edges lead to')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Only the objects of this namespace, and the nodes their edges lead to')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'The control-plane chart''s values file (its `policyMerge` applies)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;completions' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Write the scripts of every supported shell into this directory')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;man' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Directory to write the pages into')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;lsp' {
            [CompletionResult]::new('--stdio', '--stdio', [CompletionResultType]::ParameterName, 'Talk over stdin/stdout (the only transport; accepted because editors pass it)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'gwctl;help' {
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check manifests against the gateway API schemas')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'List the rule codes, or explain one')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema gwctl checks a kind against')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show the effective policy of a Gateway, listener, route, rule, backend, port or provider, field by field, with the policy each field came from')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print what the controller would program: Envoy xDS or the AI data plane''s resources, and the status conditions, per Gateway')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what changes for traffic between two sets of manifests: findings, effective policy and rendered configuration, compared on their effect, not their text')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'Draw the topology: Gateways, listeners, routes (attached and refused), rules, backends, AI providers and the policies on each, with their predicted status and error counts')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script, or write all of them to a directory')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write man pages (one for gwctl and one per subcommand) to a directory')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'Run the language server for editors (Language Server Protocol on stdin/stdout): the workspace''s findings as you type, hover, definition, references, symbols, completion')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gwctl;help;lint' {
            break
        }
        'gwctl;help;rules' {
            break
        }
        'gwctl;help;schema' {
            break
        }
        'gwctl;help;explain' {
            break
        }
        'gwctl;help;render' {
            break
        }
        'gwctl;help;diff' {
            break
        }
        'gwctl;help;graph' {
            break
        }
        'gwctl;help;completions' {
            break
        }
        'gwctl;help;man' {
            break
        }
        'gwctl;help;lsp' {
            break
        }
        'gwctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
