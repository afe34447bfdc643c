#!/bin/bash
# The series' first part alone (the annotations and the trace event, no
# mt and no mstat; harness/part1.sh): mt_event's checks of the event
# without them, as run by make guest-part1.
. "$(dirname "$0")/lib.sh"
guest_tap mt_event check-part1
