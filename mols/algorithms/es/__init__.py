"""A (1+lambda) evolution strategy over a sampled neighborhood whose radius it adapts (-a es)."""
