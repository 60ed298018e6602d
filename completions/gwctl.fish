# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_gwctl_global_optspecs
    string join \n h/help V/version
end

function __fish_gwctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_gwctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_gwctl_using_subcommand
    set -l cmd (__fish_gwctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c gwctl -n "__fish_gwctl_needs_command" -s h -l help -d 'Print help'
complete -c gwctl -n "__fish_gwctl_needs_command" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "lint" -d 'Check manifests against the gateway API schemas'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "rules" -d 'List the rule codes, or explain one'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "schema" -d 'Print the JSON Schema gwctl checks a kind against'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "explain" -d 'Show the effective policy of a Gateway, listener, route, rule, backend, port or provider, field by field, with the policy each field came from'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "render" -d 'Print what the controller would program: Envoy xDS or the AI data plane\'s resources, and the status conditions, per Gateway'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "diff" -d 'Show what changes for traffic between two sets of manifests: findings, effective policy and rendered configuration, compared on their effect, not their text'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "graph" -d 'Draw the topology: Gateways, listeners, routes (attached and refused), rules, backends, AI providers and the policies on each, with their predicted status and error counts'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "completions" -d 'Print a shell completion script, or write all of them to a directory'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "man" -d 'Write man pages (one for gwctl and one per subcommand) to a directory'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "lsp" -d 'Run the language server for editors (Language Server Protocol on stdin/stdout): the workspace\'s findings as you type, hover, definition, references, symbols, completion'
complete -c gwctl -n "__fish_gwctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l format -d 'Output format' -r -f -a "human\t'Source snippets with labels, help and a summary line'
json\t'One JSON object with every finding and a summary (see README)'
short\t'One line per finding: `file:line:col: severity[CODE] message`'
sarif\t'SARIF 2.1.0 log (code scanning tools)'
github\t'GitHub Actions workflow commands (`::error file=...::message`), annotations on a PR'
junit\t'JUnit XML: one test case per resource (CI test reports)'
gitlab\t'GitLab Code Quality JSON (merge request widget), with stable fingerprints'
rdjson\t'reviewdog\'s diagnostic format, rdjson (`reviewdog -f=rdjson`)'"
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l color -d 'When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l fail-on -d 'Lowest severity that makes the exit status 1' -r -f -a "error\t''
warning\t''"
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l include -d 'Lint only files matching this glob (relative to a directory argument; repeatable)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l exclude -d 'Skip files matching this glob (relative to a directory argument; repeatable)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l values -d 'The control-plane chart\'s values file, checked against the installation values' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l crds -d 'CustomResourceDefinition file or directory to check objects against (repeatable); a CRD of a built-in kind replaces the built-in schema' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l output -d 'Also write the report in --format to FILE; the terminal then gets the human format' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l config -d 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l max-alias-nodes -d 'Nodes that YAML alias expansion may add to one file (all files together: 100 times as many)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l max-depth -d 'Nesting depth of mappings and sequences (at most 1000)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l max-document-bytes -d 'Bytes in one document' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l max-documents -d 'Documents in one file' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l max-total-bytes -d 'Bytes of all input files together; files beyond it are skipped with a finding' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l max-regex-size -d 'Compiled size of a regular expression checked in a value (bytes of the regex program)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l max-cel-length -d 'Bytes of one CEL expression (data-plane expression fields and rules of --crds CRDs)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l max-cel-depth -d 'Nesting of one CEL expression: brackets, plus operators, selections and ternaries chained inside each' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l strict-refs -d 'Report each reference to a kind with no object in the inputs (no Services at all...) as missing, instead of one note per kind'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -s q -l quiet -d 'Human format: omit the summary line. Also hides the progress bar'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l show-suppressed -d 'List the findings that suppressions hid, marked as suppressed'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l statistics -d 'Count findings per code, most frequent first (human: a table; json: summary.statistics; other formats: a table on stderr)'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l watch -d 'Keep running: lint again whenever a YAML or JSON file under the paths changes, clearing the terminal before each report. Ctrl-C ends it (exit status 0)'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l fix -d 'Apply the safe fixes that findings offer (`gwctl rules` says which rules have one), in place: files are rewritten atomically, only when changed; stdin\'s fixed text is printed on stdout (the report then goes to stderr). The report lists the findings that remain'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l unsafe-fixes -d 'Apply the unsafe fixes too (guesses: a reference renamed to the closest object, a generated ReferenceGrant); implies --fix unless --diff is given'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l diff -d 'Print the fixes as a unified diff (for `git apply`) instead of writing them; exit status 1 when there is something to fix'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -l fix-only -d 'Apply the fixes and report nothing else (only the summary on stderr); exit status 0 unless a file could not be written. Implies --fix'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gwctl -n "__fish_gwctl_using_subcommand lint" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand rules" -l markdown -d 'Print every rule with its explanation and examples as Markdown (docs/rules.md)'
complete -c gwctl -n "__fish_gwctl_using_subcommand rules" -s h -l help -d 'Print help'
complete -c gwctl -n "__fish_gwctl_using_subcommand rules" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand schema" -l api-version -d 'GROUP/VERSION of the kind, when several groups or versions have it (default: the newest served version of the only group that has it)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand schema" -s h -l help -d 'Print help'
complete -c gwctl -n "__fish_gwctl_using_subcommand schema" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand explain" -s n -l namespace -d 'Namespace of the target' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand explain" -s o -l output -d 'Output format' -r -f -a "human\t'The hierarchy, the attached policies and the annotated effective policy'
yaml\t'The same facts as YAML data'
json\t'The same facts as JSON data'"
complete -c gwctl -n "__fish_gwctl_using_subcommand explain" -l color -d 'When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c gwctl -n "__fish_gwctl_using_subcommand explain" -l values -d 'The control-plane chart\'s values file (its `policyMerge` applies)' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand explain" -l config -d 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand explain" -s A -l all-namespaces -d 'With KIND/*: objects of every namespace'
complete -c gwctl -n "__fish_gwctl_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gwctl -n "__fish_gwctl_using_subcommand explain" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand render" -l gateway -d 'Only this Gateway, as NAMESPACE/NAME (or NAME in namespace `default`); every Gateway when unset' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand render" -l type -d 'Which resources to print' -r -f -a "listener\t''
route\t''
cluster\t''
status\t''
all\t''"
complete -c gwctl -n "__fish_gwctl_using_subcommand render" -s o -l output -d 'Output format' -r -f -a "yaml\t''
json\t''"
complete -c gwctl -n "__fish_gwctl_using_subcommand render" -l validation-level -d 'What an invalid route rule does: `standard` renders it as a direct response 500 and passes what only the proxy rejects through; `strict` adds the proxy\'s checks, drops a rule whose matcher the proxy rejects and answers 500 for the rest (default: the values file\'s `validation.level`, else standard). Neither refuses a Gateway' -r -f -a "standard\t'A rule the controller finds invalid becomes a direct response 500; what only the proxy would reject (a regex RE2 refuses, a template that does not compile) is rendered as written'
strict\t'The proxy\'s validation too: a rule whose matcher the proxy rejects is dropped (the route not Accepted, reason `RouteRuleDropped`); anything else either rejects is a direct response 500, as in standard'"
complete -c gwctl -n "__fish_gwctl_using_subcommand render" -l values -d 'The control-plane chart\'s values file (`validation.level`, `policyMerge`)' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand render" -l config -d 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand render" -l check -d 'Check every rendered Envoy resource against Envoy\'s proto definitions'
complete -c gwctl -n "__fish_gwctl_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gwctl -n "__fish_gwctl_using_subcommand render" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l base -d 'A path of BASE (repeatable), with --head, for sets of paths' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l head -d 'A path of HEAD (repeatable)' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l git -d 'Take BASE from this git revision of HEAD\'s paths (a commit, branch or tag)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -s o -l output -d 'Output format' -r -f -a "human\t'The three sections, with a unified diff of each changed rendered resource'
json\t'The same facts as JSON data'
markdown\t'A pull-request comment: collapsible sections, capped with --max-chars'"
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l color -d 'When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l fail-on -d 'Exit with 1 when a finding at or above this severity is introduced' -r -f -a "error\t''
warning\t''"
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l max-chars -d 'Markdown: the longest comment to print; what does not fit is counted instead' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l gateway -d 'Only this Gateway\'s rendered configuration, as NAMESPACE/NAME (or NAME in namespace `default`)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l validation-level -d 'What an invalid route rule renders as on both sides (see `gwctl render`)' -r -f -a "standard\t'A rule the controller finds invalid becomes a direct response 500; what only the proxy would reject (a regex RE2 refuses, a template that does not compile) is rendered as written'
strict\t'The proxy\'s validation too: a rule whose matcher the proxy rejects is dropped (the route not Accepted, reason `RouteRuleDropped`); anything else either rejects is a direct response 500, as in standard'"
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l values -d 'The control-plane chart\'s values file, for both sides' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l config -d 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l max-alias-nodes -d 'Nodes that YAML alias expansion may add to one file (all files together: 100 times as many)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l max-depth -d 'Nesting depth of mappings and sequences (at most 1000)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l max-document-bytes -d 'Bytes in one document' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l max-documents -d 'Documents in one file' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l max-total-bytes -d 'Bytes of all input files together; files beyond it are skipped with a finding' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l max-regex-size -d 'Compiled size of a regular expression checked in a value (bytes of the regex program)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l max-cel-length -d 'Bytes of one CEL expression (data-plane expression fields and rules of --crds CRDs)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l max-cel-depth -d 'Nesting of one CEL expression: brackets, plus operators, selections and ternaries chained inside each' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -l exit-code -d 'Exit with 1 when something changes in effect, like `git diff --exit-code`'
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gwctl -n "__fish_gwctl_using_subcommand diff" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand graph" -l gateway -d 'Only this Gateway\'s component (what it reaches and the policies and GatewayClass on those), as NAMESPACE/NAME (or NAME in namespace `default`)' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand graph" -s n -l namespace -d 'Only the objects of this namespace, and the nodes their edges lead to' -r
complete -c gwctl -n "__fish_gwctl_using_subcommand graph" -s o -l output -d 'Output format' -r -f -a "mermaid\t'Mermaid flowchart: renders inline in GitHub and GitLab Markdown'
dot\t'Graphviz DOT'
svg\t'A self-contained SVG picture, laid out by gwctl'"
complete -c gwctl -n "__fish_gwctl_using_subcommand graph" -l values -d 'The control-plane chart\'s values file (its `policyMerge` applies)' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand graph" -l config -d 'Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand graph" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gwctl -n "__fish_gwctl_using_subcommand graph" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand completions" -l dir -d 'Write the scripts of every supported shell into this directory' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand completions" -s h -l help -d 'Print help'
complete -c gwctl -n "__fish_gwctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand man" -l dir -d 'Directory to write the pages into' -r -F
complete -c gwctl -n "__fish_gwctl_using_subcommand man" -s h -l help -d 'Print help'
complete -c gwctl -n "__fish_gwctl_using_subcommand man" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand lsp" -l stdio -d 'Talk over stdin/stdout (the only transport; accepted because editors pass it)'
complete -c gwctl -n "__fish_gwctl_using_subcommand lsp" -s h -l help -d 'Print help'
complete -c gwctl -n "__fish_gwctl_using_subcommand lsp" -s V -l version -d 'Print version'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "lint" -d 'Check manifests against the gateway API schemas'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "rules" -d 'List the rule codes, or explain one'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "schema" -d 'Print the JSON Schema gwctl checks a kind against'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "explain" -d 'Show the effective policy of a Gateway, listener, route, rule, backend, port or provider, field by field, with the policy each field came from'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "render" -d 'Print what the controller would program: Envoy xDS or the AI data plane\'s resources, and the status conditions, per Gateway'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "diff" -d 'Show what changes for traffic between two sets of manifests: findings, effective policy and rendered configuration, compared on their effect, not their text'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "graph" -d 'Draw the topology: Gateways, listeners, routes (attached and refused), rules, backends, AI providers and the policies on each, with their predicted status and error counts'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "completions" -d 'Print a shell completion script, or write all of them to a directory'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "man" -d 'Write man pages (one for gwctl and one per subcommand) to a directory'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "lsp" -d 'Run the language server for editors (Language Server Protocol on stdin/stdout): the workspace\'s findings as you type, hover, definition, references, symbols, completion'
complete -c gwctl -n "__fish_gwctl_using_subcommand help; and not __fish_seen_subcommand_from lint rules schema explain render diff graph completions man lsp help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
