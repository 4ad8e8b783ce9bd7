#!/usr/bin/env node
import '../dist/cmd/cli.js';
