package main

import "errors"

func runLoad(args []string) error { return errors.New("loadgw load: not built yet") }
