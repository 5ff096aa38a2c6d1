"""The `yisai` command: thin typer front end over yisai.services."""
