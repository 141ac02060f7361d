"""The inbox-triage environment (``inbox-v0``): see docs/inbox.md."""
