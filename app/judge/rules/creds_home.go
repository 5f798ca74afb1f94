package rules

import "strings"

// SecretGoesHome: every host is the own service of the secret variable
// name (GITHUB_TOKEN to api.github.com), as the shell senders judge it
// (creds_dest.go); false when the hosts are unknown or the name's service
// is. For the packs that read code (packs/interp).
func SecretGoesHome(name string, hosts []string) bool {
	_, homes, _ := secretHomes("$"+strings.ToUpper(name), 0)
	return atHome(hosts, homes)
}
