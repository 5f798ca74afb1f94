//go:build !unix

package main

func ignoreSIGPIPE() {}
