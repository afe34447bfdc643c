#!/bin/bash
# On the test kernel with CPUs possible but offline (maxcpus=2 of 4):
# mt_hotplug, as run by harness/guest/hotplug.sh.
. "$(dirname "$0")/lib.sh"
guest_tap mt_hotplug check-hotplug
