"""Forms generated from the profile model's field metadata."""
