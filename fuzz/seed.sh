#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ (gitignored) with seed inputs:
#   yaml_tree, lint_document, report_formats, explain, render, diff: testdata/ and the shared
#     corpus's manifests (files under 16 KiB, so that libFuzzer's input length stays small), plus
#     fuzz/seeds/config_loader/ and fuzz/seeds/manifests/ (secrets of every kind);
#   cel_check: fuzz/seeds/cel_check/ and every x-kubernetes-validations rule of schemas/*.json;
#   config_loader: fuzz/seeds/config_loader/.
# The shared corpus is $GWCTL_CORPUS, else ../shared/corpus beside the repository; without it only
# the repository's own inputs are used. Files are named by content hash, so reruns add nothing twice.
set -euo pipefail
fuzz=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$fuzz")
corpus=${GWCTL_CORPUS:-$repo/../shared/corpus}

add() { # add TARGET FILE...
  local dir="$fuzz/corpus/$1"
  shift
  mkdir -p "$dir"
  for f in "$@"; do
    cp "$f" "$dir/$(sha1sum "$f" | cut -c1-40)"
  done
}

manifests() { # files under the given directories, small enough to seed with
  find "$@" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) -size -16k -print0
}

sources=("$repo/testdata")
if [ -d "$corpus" ]; then
  sources+=("$corpus")
else
  echo "note: shared corpus not found at $corpus (set GWCTL_CORPUS); seeding from testdata/ only" >&2
fi

for target in yaml_tree lint_document report_formats explain render diff; do
  while IFS= read -r -d '' f; do
    add "$target" "$f"
  done < <(manifests "${sources[@]}" "$fuzz/seeds/config_loader" "$fuzz/seeds/manifests")
done
add config_loader "$fuzz"/seeds/config_loader/*
add cel_check "$fuzz"/seeds/cel_check/*

# Every CEL rule of the embedded schemas, one file each.
rules=$(mktemp -d)
python3 - "$rules" "$repo"/schemas/*.json <<'PY'
import hashlib, json, pathlib, sys
out = pathlib.Path(sys.argv[1])
def walk(v):
    if isinstance(v, dict):
        for rule in v.get("x-kubernetes-validations", []) if isinstance(v.get("x-kubernetes-validations"), list) else []:
            for key in ("rule", "messageExpression"):
                if isinstance(rule, dict) and isinstance(rule.get(key), str):
                    text = rule[key].encode()
                    (out / hashlib.sha1(text).hexdigest()).write_bytes(text)
        for x in v.values():
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
for path in sys.argv[2:]:
    walk(json.loads(pathlib.Path(path).read_text()))
PY
add cel_check "$rules"/*
rm -r "$rules"

for t in yaml_tree lint_document report_formats explain render diff cel_check config_loader; do
  echo "$t: $(find "$fuzz/corpus/$t" -type f | wc -l) seeds"
done
