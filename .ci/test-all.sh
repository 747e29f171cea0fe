#!/usr/bin/env bash
# Every test file (the full tier of jest.config.js), after .ci/setup.sh: `npm run test:all`.
# Two runs, so that the unit tier can have both cores: first the unit tier (jest.unit.config.js,
# two workers, as `npm test`: no tool, no timing, no root), then the files it leaves out
# (jest.serial.config.js: FULL_TIER_ONLY, one at a time, nothing beside them). The second run
# happens even when the first failed, so that one CI run reports every failure; the exit code
# is non-zero when either failed. Arguments go to both jest runs.
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--experimental-vm-modules"
node_modules/.bin/jest -c jest.unit.config.js "$@"
unit=$?
node_modules/.bin/jest -c jest.serial.config.js "$@"
serial=$?
[ "$unit" = 0 ] || echo "test:all: the unit tier failed (see above)" >&2
[ "$serial" = 0 ] || echo "test:all: the serial tier failed (see above)" >&2
[ "$unit" = 0 ] && [ "$serial" = 0 ]
