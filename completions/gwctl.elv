
use builtin;
use str;

set edit:completion:arg-completer[gwctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'gwctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'gwctl'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand lint 'Check manifests against the gateway API schemas'
            cand rules 'List the rule codes, or explain one'
            cand schema 'Print the JSON Schema gwctl checks a kind against'
            cand explain 'Show the effective policy of a Gateway, listener, route, rule, backend, port or provider, field by field, with the policy each field came from'
            cand render 'Print what the controller would program: Envoy xDS or the AI data plane''s resources, and the status conditions, per Gateway'
            cand diff 'Show what changes for traffic between two sets of manifests: findings, effective policy and rendered configuration, compared on their effect, not their text'
            cand graph 'Draw the topology: Gateways, listeners, routes (attached and refused), rules, backends, AI providers and the policies on each, with their predicted status and error counts'
            cand completions 'Print a shell completion script, or write all of them to a directory'
            cand man 'Write man pages (one for gwctl and one per subcommand) to a directory'
            cand lsp 'Run the language server for editors (Language Server Protocol on stdin/stdout): the workspace''s findings as you type, hover, definition, references, symbols, completion'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gwctl;lint'= {
            cand --format 'Output format'
            cand --color 'When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)'
            cand --fail-on 'Lowest severity that makes the exit status 1'
            cand --include 'Lint only files matching this glob (relative to a directory argument; repeatable)'
            cand --exclude 'Skip files matching this glob (relative to a directory argument; repeatable)'
            cand --values 'The control-plane chart''s values file, checked against the installation values'
            cand --crds 'CustomResourceDefinition file or directory to check objects against (repeatable); a CRD of a built-in kind replaces the built-in schema'
            cand --output 'Also write the report in --format to FILE; the terminal then gets the human format'
            cand --config 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory'
            cand --max-alias-nodes 'Nodes that YAML alias expansion may add to one file (all files together: 100 times as many)'
            cand --max-depth 'Nesting depth of mappings and sequences (at most 1000)'
            cand --max-document-bytes 'Bytes in one document'
            cand --max-documents 'Documents in one file'
            cand --max-total-bytes 'Bytes of all input files together; files beyond it are skipped with a finding'
            cand --max-regex-size 'Compiled size of a regular expression checked in a value (bytes of the regex program)'
            cand --max-cel-length 'Bytes of one CEL expression (data-plane expression fields and rules of --crds CRDs)'
            cand --max-cel-depth 'Nesting of one CEL expression: brackets, plus operators, selections and ternaries chained inside each'
            cand --strict-refs 'Report each reference to a kind with no object in the inputs (no Services at all...) as missing, instead of one note per kind'
            cand -q 'Human format: omit the summary line. Also hides the progress bar'
            cand --quiet 'Human format: omit the summary line. Also hides the progress bar'
            cand --show-suppressed 'List the findings that suppressions hid, marked as suppressed'
            cand --statistics 'Count findings per code, most frequent first (human: a table; json: summary.statistics; other formats: a table on stderr)'
            cand --watch 'Keep running: lint again whenever a YAML or JSON file under the paths changes, clearing the terminal before each report. Ctrl-C ends it (exit status 0)'
            cand --fix 'Apply the safe fixes that findings offer (`gwctl rules` says which rules have one), in place: files are rewritten atomically, only when changed; stdin''s fixed text is printed on stdout (the report then goes to stderr). The report lists the findings that remain'
            cand --unsafe-fixes 'Apply the unsafe fixes too (guesses: a reference renamed to the closest object, a generated ReferenceGrant); implies --fix unless --diff is given'
            cand --diff 'Print the fixes as a unified diff (for `git apply`) instead of writing them; exit status 1 when there is something to fix'
            cand --fix-only 'Apply the fixes and report nothing else (only the summary on stderr); exit status 0 unless a file could not be written. Implies --fix'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;rules'= {
            cand --markdown 'Print every rule with its explanation and examples as Markdown (docs/rules.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;schema'= {
            cand --api-version 'GROUP/VERSION of the kind, when several groups or versions have it (default: the newest served version of the only group that has it)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;explain'= {
            cand -n 'Namespace of the target'
            cand --namespace 'Namespace of the target'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)'
            cand --values 'The control-plane chart''s values file (its `policyMerge` applies)'
            cand --config 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory'
            cand -A 'With KIND/*: objects of every namespace'
            cand --all-namespaces 'With KIND/*: objects of every namespace'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;render'= {
            cand --gateway 'Only this Gateway, as NAMESPACE/NAME (or NAME in namespace `default`); every Gateway when unset'
            cand --type 'Which resources to print'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --validation-level 'What an invalid route rule does: `standard` renders it as a direct response 500 and passes what only the proxy rejects through; `strict` adds the proxy''s checks, drops a rule whose matcher the proxy rejects and answers 500 for the rest (default: the values file''s `validation.level`, else standard). Neither refuses a Gateway'
            cand --values 'The control-plane chart''s values file (`validation.level`, `policyMerge`)'
            cand --config 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory'
            cand --check 'Check every rendered Envoy resource against Envoy''s proto definitions'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;diff'= {
            cand --base 'A path of BASE (repeatable), with --head, for sets of paths'
            cand --head 'A path of HEAD (repeatable)'
            cand --git 'Take BASE from this git revision of HEAD''s paths (a commit, branch or tag)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)'
            cand --fail-on 'Exit with 1 when a finding at or above this severity is introduced'
            cand --max-chars 'Markdown: the longest comment to print; what does not fit is counted instead'
            cand --gateway 'Only this Gateway''s rendered configuration, as NAMESPACE/NAME (or NAME in namespace `default`)'
            cand --validation-level 'What an invalid route rule renders as on both sides (see `gwctl render`)'
            cand --values 'The control-plane chart''s values file, for both sides'
            cand --config 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory'
            cand --max-alias-nodes 'Nodes that YAML alias expansion may add to one file (all files together: 100 times as many)'
            cand --max-depth 'Nesting depth of mappings and sequences (at most 1000)'
            cand --max-document-bytes 'Bytes in one document'
            cand --max-documents 'Documents in one file'
            cand --max-total-bytes 'Bytes of all input files together; files beyond it are skipped with a finding'
            cand --max-regex-size 'Compiled size of a regular expression checked in a value (bytes of the regex program)'
            cand --max-cel-length 'Bytes of one CEL expression (data-plane expression fields and rules of --crds CRDs)'
            cand --max-cel-depth 'Nesting of one CEL expression: brackets, plus operators, selections and ternaries chained inside each'
            cand --exit-code 'Exit with 1 when something changes in effect, like `git diff --exit-code`'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;graph'= {
            cand --gateway 'Only this Gateway''s component (what it reaches and the policies and GatewayClass on those), as NAMESPACE/NAME (or NAME in namespace `default`)'
            cand -n 'Only the objects of this namespace, and the nodes their edges lead to'
            cand --namespace 'Only the objects of this namespace, and the nodes their edges lead to'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --values 'The control-plane chart''s values file (its `policyMerge` applies)'
            cand --config 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;completions'= {
            cand --dir 'Write the scripts of every supported shell into this directory'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;man'= {
            cand --dir 'Directory to write the pages into'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;lsp'= {
            cand --stdio 'Talk over stdin/stdout (the only transport; accepted because editors pass it)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'gwctl;help'= {
            cand lint 'Check manifests against the gateway API schemas'
            cand rules 'List the rule codes, or explain one'
            cand schema 'Print the JSON Schema gwctl checks a kind against'
            cand explain 'Show the effective policy of a Gateway, listener, route, rule, backend, port or provider, field by field, with the policy each field came from'
            cand render 'Print what the controller would program: Envoy xDS or the AI data plane''s resources, and the status conditions, per Gateway'
            cand diff 'Show what changes for traffic between two sets of manifests: findings, effective policy and rendered configuration, compared on their effect, not their text'
            cand graph 'Draw the topology: Gateways, listeners, routes (attached and refused), rules, backends, AI providers and the policies on each, with their predicted status and error counts'
            cand completions 'Print a shell completion script, or write all of them to a directory'
            cand man 'Write man pages (one for gwctl and one per subcommand) to a directory'
            cand lsp 'Run the language server for editors (Language Server Protocol on stdin/stdout): the workspace''s findings as you type, hover, definition, references, symbols, completion'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gwctl;help;lint'= {
        }
        &'gwctl;help;rules'= {
        }
        &'gwctl;help;schema'= {
        }
        &'gwctl;help;explain'= {
        }
        &'gwctl;help;render'= {
        }
        &'gwctl;help;diff'= {
        }
        &'gwctl;help;graph'= {
        }
        &'gwctl;help;completions'= {
        }
        &'gwctl;help;man'= {
        }
        &'gwctl;help;lsp'= {
        }
        &'gwctl;help;help'= {
        }
    ]
    $completions[$command]
}
