package disk

import (
	"path"
	"path/filepath"
	"strings"
)

// regenFolders are folders that tools fill and can fill again: deleting
// them costs a rebuild or a download, never the user's work.
var regenFolders = map[string]bool{
	"node_modules": true, "dist": true, "build": true, "target": true, "out": true, "bin": true, "obj": true,
	"__pycache__": true, ".pytest_cache": true, ".mypy_cache": true, ".ruff_cache": true, ".tox": true, ".nox": true,
	".venv": true, "venv": true, ".next": true, ".nuxt": true, ".svelte-kit": true, ".turbo": true, ".parcel-cache": true,
	".cache": true, "coverage": true, ".nyc_output": true, "htmlcov": true, ".gradle": true, ".dart_tool": true,
	".angular": true, ".expo": true, ".eggs": true, ".terraform": true, "cmake-build-debug": true, "cmake-build-release": true,
	"_build": true, "deps": true, ".stack-work": true, "zig-cache": true, "zig-out": true, ".zig-cache": true,
	".serverless": true, ".vercel": true, ".docusaurus": true, "storybook-static": true, ".sass-cache": true, "tmp": true, ".tmp": true,
}

// regenExts are compiled or cached files next to their sources.
var regenExts = map[string]bool{".pyc": true, ".pyo": true, ".o": true, ".obj": true, ".class": true, ".tsbuildinfo": true, ".log": true}

// Regenerated reports whether p lies in build output or a cache by its
// name: a folder of the table on its path, or a compiled file's extension.
func Regenerated(p string) bool {
	p = filepath.ToSlash(p)
	if regenExts[strings.ToLower(path.Ext(p))] || strings.HasSuffix(p, ".egg-info") {
		return true
	}
	for _, part := range strings.Split(p, "/") {
		if regenFolders[part] || strings.HasSuffix(part, ".egg-info") {
			return true
		}
	}
	return false
}

// RegenName reports whether a single folder name is build output.
func RegenName(name string) bool { return regenFolders[name] }
