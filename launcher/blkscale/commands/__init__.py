"""The launcher's subcommands (run, plan, validate, xml); cli.py lists them."""
