//go:build !linux && !darwin

package rootfs

import "github.com/spf13/afero"

// readHostFile is ReadFile on the host's file system (readhost_unix.go has the faster path).
func readHostFile(path string) ([]byte, error) { return ReadFile(afero.NewOsFs(), path, MaxHostFile) }

// readListedFile is readHostFile.
func readListedFile(path string) ([]byte, error) { return readHostFile(path) }
