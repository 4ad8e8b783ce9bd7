#!/usr/bin/env bash
# Installs what the tests need on a fresh machine, then runs the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund
npm test
