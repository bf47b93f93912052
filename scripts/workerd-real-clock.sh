#!/bin/sh
# workerd on the real clock, for the Worker tests under `faketime` (test/helpers/real-clock.ts says
# why): Miniflare starts this in place of workerd (MINIFLARE_WORKERD_PATH, set by vitest.config.ts
# only under libfaketime), and it starts workerd without libfaketime's preload.
unset LD_PRELOAD FAKETIME FAKETIME_DONT_FAKE_MONOTONIC
exec "$V2BRIDGE_WORKERD" "$@"
