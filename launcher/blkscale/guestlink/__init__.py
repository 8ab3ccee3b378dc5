"""The host's link to the guest: the plan archive it boots with
(planfiles.py, cpio.py), its console (console.py) and the results
channel (channel.py).  The guest's own side lives in guest-tools/."""
