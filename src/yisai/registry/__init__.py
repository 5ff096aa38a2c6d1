"""People, entries and teams, and the eligibility rules that decide who may play where."""
