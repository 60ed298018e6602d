//! The command-line grammar. Completions and man pages are generated from these types.

use std::path::PathBuf;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use clap_complete::Shell;

use crate::parse::{Limits, MAX_DEPTH_CAP};
use crate::report::{ExplainFormat, Format};

/// `--version`: the version and the commit it was built from (build.rs); `-V` prints the
/// version alone. Generated files (man pages) leave the commit out, or they would go stale with
/// every commit.
pub const LONG_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("GWCTL_COMMIT"), ")");

/// Lint declarative gateway manifests offline.
#[derive(Debug, Parser)]
#[command(name = "gwctl", version, long_version = LONG_VERSION, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check manifests against the gateway API schemas
    #[command(after_help = LINT_AFTER_HELP)]
    Lint(LintArgs),
    /// List the rule codes, or explain one
    Rules(RulesArgs),
    /// Print the JSON Schema gwctl checks a kind against
    Schema(SchemaArgs),
    /// Show the effective policy of a Gateway, listener, route, rule, backend, port or provider,
    /// field by field, with the policy each field came from
    #[command(after_help = EXPLAIN_AFTER_HELP)]
    Explain(ExplainArgs),
    /// Print what the controller would program: Envoy xDS or the AI data plane's resources, and
    /// the status conditions, per Gateway
    #[command(after_help = RENDER_AFTER_HELP)]
    Render(RenderArgs),
    /// Show what changes for traffic between two sets of manifests: findings, effective policy
    /// and rendered configuration, compared on their effect, not their text
    #[command(after_help = DIFF_AFTER_HELP)]
    Diff(DiffArgs),
    /// Draw the topology: Gateways, listeners, routes (attached and refused), rules, backends,
    /// AI providers and the policies on each, with their predicted status and error counts
    #[command(after_help = GRAPH_AFTER_HELP)]
    Graph(GraphArgs),
    /// Print a shell completion script, or write all of them to a directory
    Completions(CompletionsArgs),
    /// Write man pages (one for gwctl and one per subcommand) to a directory
    Man(ManArgs),
    /// Run the language server for editors (Language Server Protocol on stdin/stdout): the
    /// workspace's findings as you type, hover, definition, references, symbols, completion
    Lsp(LspArgs),
}

#[derive(Debug, Args)]
pub struct LspArgs {
    /// Talk over stdin/stdout (the only transport; accepted because editors pass it)
    #[arg(long)]
    pub stdio: bool,
}

const LINT_AFTER_HELP: &str = "\
Exit status: 0 when no finding is at or above --fail-on, 1 when one is, \
2 on a usage error or an unreadable path (the other paths are still linted).";

const EXPLAIN_AFTER_HELP: &str = "\
TARGET is KIND/NAME or KIND/NAME:SECTION (a listener, a rule by name or index, a Service port, \
an AI provider or MCP target); KIND/* explains every object of the kind and each of its sections. KIND is a full kind name in any case or a short name: gw, route, \
grpcroute, svc, backend, aibackend. Exit status: 0 when the target was explained, 2 on a usage \
error, an unreadable path or an unknown target.";

const RENDER_AFTER_HELP: &str = "\
Secrets are never printed: their data is replaced by a digest. Exit status: 0 when every selected \
Gateway was rendered, 1 when one failed --check, 2 on \
a usage error, an unreadable path or an unknown --gateway.";

const DIFF_AFTER_HELP: &str = "\
Forms: `gwctl diff BASE HEAD` (each a file or directory); `gwctl diff --base P... --head P...` \
(sets of paths); `gwctl diff --git REV [PATH...]` (BASE is PATH as git revision REV has it, read \
without a checkout; HEAD is PATH on disk; default `.`). A resource that moved to another file or \
within one is no change. Exit status: 0, or 1 with --exit-code when something changes in effect \
(an effective policy field or a rendered resource) or when a finding at or above --fail-on is \
introduced; 2 on a usage error, an unreadable path or a git error.";

/// How `diff` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// The three sections, with a unified diff of each changed rendered resource
    Human,
    /// The same facts as JSON data
    Json,
    /// A pull-request comment: collapsible sections, capped with --max-chars
    Markdown,
}

const GRAPH_AFTER_HELP: &str = "\
Edges: a listener to the routes attached to it; a dashed red edge from a Gateway or listener to a \
route it refuses, with the reason; a rule to its backends (with the weight); a rule to the routes \
it delegates to; a policy to its target (blue when it applies, dashed grey when Overridden, dashed \
red when Invalid). Nodes with error findings are outlined red with the count. Exit status: 0, or 2 \
on a usage error, an unreadable path or an unknown --gateway.";

#[derive(Debug, Args)]
pub struct GraphArgs {
    /// Files and directories holding the manifests; `-` reads one stream from stdin
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Only this Gateway's component (what it reaches and the policies and GatewayClass on
    /// those), as NAMESPACE/NAME (or NAME in namespace `default`)
    #[arg(long, value_name = "NS/NAME")]
    pub gateway: Option<String>,

    /// Only the objects of this namespace, and the nodes their edges lead to
    #[arg(short, long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = crate::report::graph::GraphFormat::Mermaid)]
    pub output: crate::report::graph::GraphFormat,

    /// The control-plane chart's values file (its `policyMerge` applies)
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,

    /// Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// BASE and HEAD (a file or directory each); with --git, the paths of HEAD
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// A path of BASE (repeatable), with --head, for sets of paths
    #[arg(long, value_name = "PATH", requires = "head", conflicts_with = "git")]
    pub base: Vec<PathBuf>,

    /// A path of HEAD (repeatable)
    #[arg(long, value_name = "PATH")]
    pub head: Vec<PathBuf>,

    /// Take BASE from this git revision of HEAD's paths (a commit, branch or tag)
    #[arg(long, value_name = "REV")]
    pub git: Option<String>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = DiffFormat::Human)]
    pub output: DiffFormat,

    /// When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Exit with 1 when something changes in effect, like `git diff --exit-code`
    #[arg(long)]
    pub exit_code: bool,

    /// Exit with 1 when a finding at or above this severity is introduced
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,

    /// Markdown: the longest comment to print; what does not fit is counted instead
    #[arg(long, value_name = "N", default_value_t = crate::diff::MARKDOWN_CAP)]
    pub max_chars: usize,

    /// Only this Gateway's rendered configuration, as NAMESPACE/NAME (or NAME in namespace `default`)
    #[arg(long, value_name = "NS/NAME")]
    pub gateway: Option<String>,

    /// What an invalid route rule renders as on both sides (see `gwctl render`)
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub validation_level: Option<crate::render::ValidationLevel>,

    /// The control-plane chart's values file, for both sides
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,

    /// Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[command(flatten)]
    pub limits: LimitArgs,
}

/// What `render --type` selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RenderType {
    Listener,
    Route,
    Cluster,
    Status,
    All,
}

/// How `render` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RenderFormat {
    Yaml,
    Json,
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Files and directories holding the manifests; `-` reads one stream from stdin
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Only this Gateway, as NAMESPACE/NAME (or NAME in namespace `default`); every Gateway when unset
    #[arg(long, value_name = "NS/NAME")]
    pub gateway: Option<String>,

    /// Which resources to print
    #[arg(long = "type", value_enum, default_value_t = RenderType::All)]
    pub kind: RenderType,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = RenderFormat::Yaml)]
    pub output: RenderFormat,

    /// What an invalid route rule does: `standard` renders it as a direct response 500 and
    /// passes what only the proxy rejects through; `strict` adds the proxy's checks, drops a
    /// rule whose matcher the proxy rejects and answers 500 for the rest (default: the values
    /// file's `validation.level`, else standard). Neither refuses a Gateway
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub validation_level: Option<crate::render::ValidationLevel>,

    /// The control-plane chart's values file (`validation.level`, `policyMerge`)
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,

    /// Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Check every rendered Envoy resource against Envoy's proto definitions
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// What to explain: KIND/NAME[:SECTION], such as httproute/checkout:pay or gw/public:https
    #[arg(value_name = "TARGET")]
    pub target: String,

    /// Files and directories holding the manifests; `-` reads one stream from stdin
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Namespace of the target
    #[arg(short, long, value_name = "NAMESPACE", default_value = "default")]
    pub namespace: String,

    /// With KIND/*: objects of every namespace
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = ExplainFormat::Human)]
    pub output: ExplainFormat,

    /// When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// The control-plane chart's values file (its `policyMerge` applies)
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,

    /// Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Files and directories to lint; `-` reads one stream from stdin
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// When to colour human output (`auto`: when stdout is a terminal and NO_COLOR is unset)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Lowest severity that makes the exit status 1
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,

    /// Lint only files matching this glob (relative to a directory argument; repeatable)
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,

    /// Skip files matching this glob (relative to a directory argument; repeatable)
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,

    /// The control-plane chart's values file, checked against the installation values
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,

    /// Report each reference to a kind with no object in the inputs (no Services at all...) as
    /// missing, instead of one note per kind
    #[arg(long)]
    pub strict_refs: bool,

    /// Human format: omit the summary line. Also hides the progress bar
    #[arg(short, long)]
    pub quiet: bool,

    /// CustomResourceDefinition file or directory to check objects against (repeatable); a CRD of
    /// a built-in kind replaces the built-in schema
    #[arg(long, value_name = "PATH")]
    pub crds: Vec<PathBuf>,

    /// Also write the report in --format to FILE; the terminal then gets the human format
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Config file to use instead of the nearest gwctl.yaml or .gwctl.yaml above the current directory
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// List the findings that suppressions hid, marked as suppressed
    #[arg(long)]
    pub show_suppressed: bool,

    /// Count findings per code, most frequent first (human: a table; json: summary.statistics; other formats: a table on stderr)
    #[arg(long)]
    pub statistics: bool,

    /// Keep running: lint again whenever a YAML or JSON file under the paths changes, clearing
    /// the terminal before each report. Ctrl-C ends it (exit status 0)
    #[arg(long, conflicts_with_all = ["fix", "diff"])]
    pub watch: bool,

    /// Apply the safe fixes that findings offer (`gwctl rules` says which rules have one), in
    /// place: files are rewritten atomically, only when changed; stdin's fixed text is printed on
    /// stdout (the report then goes to stderr). The report lists the findings that remain
    #[arg(long)]
    pub fix: bool,

    /// Apply the unsafe fixes too (guesses: a reference renamed to the closest object, a
    /// generated ReferenceGrant); implies --fix unless --diff is given
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Print the fixes as a unified diff (for `git apply`) instead of writing them; exit status
    /// 1 when there is something to fix
    #[arg(long)]
    pub diff: bool,

    /// Apply the fixes and report nothing else (only the summary on stderr); exit status 0 unless
    /// a file could not be written. Implies --fix
    #[arg(long, conflicts_with = "diff")]
    pub fix_only: bool,

    #[command(flatten)]
    pub limits: LimitArgs,
}

impl LintArgs {
    /// Fixes are to be applied or shown (`--fix`, `--unsafe-fixes`, `--diff`, `--fix-only`).
    pub fn fixing(&self) -> bool {
        self.fix || self.unsafe_fixes || self.diff || self.fix_only
    }
}

/// Safety limits on the input; exceeding one is a finding naming the flag.
#[derive(Debug, Args)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Nodes that YAML alias expansion may add to one file (all files together: 100 times as many)
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_alias_nodes)]
    pub max_alias_nodes: usize,

    /// Nesting depth of mappings and sequences (at most 1000)
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_depth,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_DEPTH_CAP as u64))]
    pub max_depth: usize,

    /// Bytes in one document
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_document_bytes)]
    pub max_document_bytes: usize,

    /// Documents in one file
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_documents)]
    pub max_documents: usize,

    /// Bytes of all input files together; files beyond it are skipped with a finding
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_total_bytes)]
    pub max_total_bytes: u64,

    /// Compiled size of a regular expression checked in a value (bytes of the regex program)
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_regex_size)]
    pub max_regex_size: usize,

    /// Bytes of one CEL expression (data-plane expression fields and rules of --crds CRDs)
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_cel_length)]
    pub max_cel_length: usize,

    /// Nesting of one CEL expression: brackets, plus operators, selections and ternaries chained inside each
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_cel_depth)]
    pub max_cel_depth: usize,
}

impl From<&LimitArgs> for Limits {
    fn from(a: &LimitArgs) -> Self {
        Limits {
            max_alias_nodes: a.max_alias_nodes,
            max_depth: a.max_depth,
            max_document_bytes: a.max_document_bytes,
            max_documents: a.max_documents,
            max_total_bytes: a.max_total_bytes,
            max_regex_size: a.max_regex_size,
            max_cel_length: a.max_cel_length,
            max_cel_depth: a.max_cel_depth,
            ..Limits::default()
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// A rule code such as GW101 (case-insensitive)
    #[arg(value_parser = RuleCodes, hide_possible_values = true)]
    pub code: Option<String>,

    /// Print every rule with its explanation and examples as Markdown (docs/rules.md)
    #[arg(long, conflicts_with = "code")]
    pub markdown: bool,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Kind, such as TrafficPolicy (case-insensitive)
    pub kind: String,

    /// GROUP/VERSION of the kind, when several groups or versions have it (default: the newest
    /// served version of the only group that has it)
    #[arg(long, value_name = "GROUP/VERSION")]
    pub api_version: Option<String>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// Shell to print the script for
    #[arg(value_enum, required_unless_present = "dir", conflicts_with = "dir")]
    pub shell: Option<Shell>,

    /// Write the scripts of every supported shell into this directory
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Directory to write the pages into
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
}

/// Any string (`gwctl rules` reports an unknown code itself, with a shorter message than clap's
/// list of every code), offering the declared codes and their summaries to the completions.
#[derive(Clone)]
struct RuleCodes;

impl TypedValueParser for RuleCodes {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(crate::rules::all().map(|r| {
            PossibleValue::new(r.code.as_str()).help(r.summary)
        })))
    }
}
