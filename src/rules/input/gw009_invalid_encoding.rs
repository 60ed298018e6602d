declare_rule! {
    code: GW009,
    name: "invalid-encoding",
    severity: Error,
    summary: "A file is not UTF-8 text",
    explanation: "The file contains invalid UTF-8 or binary data (often a file an editor saved as \
        UTF-16) and is skipped; the other files are still linted. Manifests are UTF-8: convert the \
        file (`iconv -f UTF-16 -t UTF-8`), or leave it out with `--exclude` if it is not a \
        manifest.",
    example: Cli {
        failing: include_str!("gw009_invalid_encoding/failing.sh"),
        fixed: include_str!("gw009_invalid_encoding/fixed.sh"),
    },
}
