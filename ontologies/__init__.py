"""The kg vocabulary (kg.ttl) and SHACL shapes (shapes.ttl), shipped as package data."""
