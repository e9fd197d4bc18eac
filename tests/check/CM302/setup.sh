#!/bin/sh
# Nothing to compose: container.json is invalid.
