package upsert_test

import "os"

func mkdirTemp() (string, error) { return os.MkdirTemp("", "upsert-model") }
func removeAll(dir string)       { os.RemoveAll(dir) }
