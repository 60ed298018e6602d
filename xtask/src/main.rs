//! Development tasks of gwctl that need crates gwctl itself does not build with.
//!
//!   cargo run -p xtask -- descriptors           writes assets/envoy.descriptor.bin
//!   cargo run -p xtask -- descriptors --check   exits 1 when the committed file differs
//!
//! `descriptors`: the descriptor set `gwctl render --check` checks Envoy resources against, compiled
//! with protox from the .proto files the `envoy-types` crate ships (Envoy's data-plane API and the
//! xds/udpa files it imports), without source info.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use prost::Message;

/// Where the descriptor set is committed, relative to the repository root.
const OUTPUT: &str = "assets/envoy.descriptor.bin";

/// The proto roots of the crate whose files are compiled (the others are only imported).
const COMPILED: &[&str] = &["data-plane-api", "xds"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["descriptors"] => descriptors(false),
        ["descriptors", "--check"] => descriptors(true),
        _ => Err("usage: cargo run -p xtask -- descriptors [--check]".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn descriptors(check: bool) -> Result<(), String> {
    let proto = envoy_types_dir()?.join("proto");
    let bytes = compile(&proto)?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("xtask has no parent directory")?;
    let output = root.join(OUTPUT);
    if check {
        let committed = std::fs::read(&output).map_err(|e| format!("{}: {e}", output.display()))?;
        if committed != bytes {
            return Err(format!(
                "{OUTPUT} is not what `cargo run -p xtask -- descriptors` produces; regenerate it"
            ));
        }
        eprintln!("{OUTPUT} is up to date");
        return Ok(());
    }
    std::fs::create_dir_all(output.parent().ok_or("no parent")?).map_err(|e| e.to_string())?;
    std::fs::write(&output, &bytes).map_err(|e| format!("{}: {e}", output.display()))?;
    eprintln!("wrote {OUTPUT} ({} bytes)", bytes.len());
    Ok(())
}

/// The source directory of the `envoy-types` package, downloaded (not compiled) by cargo: it is
/// an optional dependency of this crate that only `cargo metadata` enables.
fn envoy_types_dir() -> Result<PathBuf, String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--features",
            "envoy-types",
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["name"] == "envoy-types")
        .and_then(|p| p["manifest_path"].as_str())
        .and_then(|m| Path::new(m).parent())
        .map(Path::to_path_buf)
        .ok_or_else(|| "cargo metadata lists no envoy-types package".to_string())
}

/// The include paths under the crate's `proto/` directory, as Envoy's files import them.
const INCLUDES: &[&str] = &[
    "data-plane-api",
    "xds",
    "googleapis",
    "protoc-gen-validate",
    "cel-spec/proto",
    "opentelemetry-proto",
    "client_model",
    "ratelimit/api",
];

/// Relative type names protox resolves differently from protoc, written out in full: protox
/// resolves against every file imported, also indirectly, so `common.dynamic_forward_proxy.v3.X`
/// in package `envoy.extensions.clusters.dynamic_forward_proxy.v3` finds the package
/// `envoy.extensions.clusters.common` (imported through `dns_cluster.proto`) first and fails;
/// protoc, which resolves against the file's own imports only, finds `envoy.extensions.common`.
const QUALIFY: &[(&str, &str, &str)] = &[(
    "envoy/extensions/clusters/dynamic_forward_proxy/v3/cluster.proto",
    " common.dynamic_forward_proxy.v3.DnsCacheConfig ",
    " envoy.extensions.common.dynamic_forward_proxy.v3.DnsCacheConfig ",
)];

/// The include paths, with the `QUALIFY` edits applied to the files they name.
struct Resolver(protox::file::ChainFileResolver);

impl Resolver {
    fn new(includes: &[PathBuf]) -> Self {
        let mut chain = protox::file::ChainFileResolver::new();
        for include in includes {
            chain.add(protox::file::IncludeFileResolver::new(include.clone()));
        }
        chain.add(protox::file::GoogleFileResolver::new());
        Resolver(chain)
    }
}

impl protox::file::FileResolver for Resolver {
    fn resolve_path(&self, path: &Path) -> Option<String> {
        self.0.resolve_path(path)
    }

    fn open_file(&self, name: &str) -> Result<protox::file::File, protox::Error> {
        let file = self.0.open_file(name)?;
        let edits: Vec<_> = QUALIFY.iter().filter(|(f, _, _)| *f == name).collect();
        match file.source() {
            Some(source) if !edits.is_empty() => {
                let mut source = source.to_string();
                for (_, from, to) in edits {
                    source = source.replace(from, to);
                }
                protox::file::File::from_source(name, &source)
            }
            _ => Ok(file),
        }
    }
}

/// Compiles every .proto file under the `COMPILED` roots, each with a compiler of its own: in one
/// shared compiler, a relative name such as `config.core.v3.X` in an `envoy.extensions` package
/// would find the package `envoy.extensions.config` of an unrelated file compiled before and fail.
/// A file that does not compile is reported and left out.
fn compile(proto: &Path) -> Result<Vec<u8>, String> {
    let includes: Vec<PathBuf> = INCLUDES.iter().map(|i| proto.join(i)).collect();
    let mut files = Vec::new();
    for root in COMPILED {
        let root = proto.join(root);
        let mut found = Vec::new();
        proto_files(&root, &mut found)?;
        files.extend(found.into_iter().filter_map(|p| {
            p.strip_prefix(&root)
                .ok()
                .map(|r| r.to_string_lossy().replace('\\', "/"))
        }));
    }
    // Sorted, so that the output does not depend on the order the file system lists them in.
    files.sort();
    let mut set = prost_types::FileDescriptorSet::default();
    let mut seen = std::collections::HashSet::new();
    let mut failed = 0;
    for file in &files {
        let mut compiler = protox::Compiler::with_file_resolver(Resolver::new(&includes));
        compiler.include_imports(true).include_source_info(false);
        if let Err(e) = compiler.open_file(file) {
            failed += 1;
            eprintln!("skipped {file}: {e}");
            continue;
        }
        // Dependencies come first in each set, so the merged set stays in dependency order.
        for f in compiler.file_descriptor_set().file {
            if seen.insert(f.name().to_string()) {
                set.file.push(f);
            }
        }
    }
    let messages: usize = set
        .file
        .iter()
        .map(|f| count_messages(&f.message_type))
        .sum();
    eprintln!(
        "{} files compiled ({failed} skipped), {} files with imports, {messages} messages",
        files.len() - failed,
        set.file.len()
    );
    Ok(set.encode_to_vec())
}

fn count_messages(messages: &[prost_types::DescriptorProto]) -> usize {
    messages
        .iter()
        .map(|m| 1 + count_messages(&m.nested_type))
        .sum()
}

fn proto_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            proto_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "proto") {
            out.push(path);
        }
    }
    Ok(())
}
