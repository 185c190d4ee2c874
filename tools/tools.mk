# SPDX-License-Identifier: GPL-2.0
# Placeholder so the top-level Makefile parses; the tools rules replace it.
tools:
