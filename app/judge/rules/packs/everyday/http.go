package everyday

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/opts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// HTTP calls that delete or overwrite: the method and URLs read the way
// curl, wget, httpie/xh and PowerShell read them (opts grammar for curl
// and wget: -XDELETE, -sSX DELETE, --req DELETE, --method=DELETE), judged
// by what the URL is: a data service (search index, queue, key-value
// store) loses data even on this machine; elsewhere loopback stays allowed.

type httpRequest struct {
	method string // upper case; "" when the default (GET, or POST with data)
	urls   []string
}

var httpMethods = rules.PkSet("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")

func httpRequestOf(c *shell.Cmd) httpRequest {
	var r httpRequest
	switch c.Name {
	case "curl", "curlie":
		a := opts.ParseFor("curl", c.Args)
		r.method, _ = a.Value("request")
		r.urls = append(a.Values("url"), a.Operands...)
		if r.method == "" && a.Has("upload-file") {
			r.method = "PUT"
		}
	case "wget", "wget2":
		a := opts.ParseFor("wget", c.Args)
		r.method, _ = a.Value("method")
		r.urls = a.Operands
	case "invoke-webrequest", "iwr", "invoke-restmethod", "irm":
		r.method, _ = rules.PkWinVal(c, "method")
		if u, ok := rules.PkWinVal(c, "uri"); ok {
			r.urls = append(r.urls, u)
		}
		for _, o := range c.Operands() {
			if strings.Contains(o, "://") {
				r.urls = append(r.urls, o)
			}
		}
	default: // httpie, xh: [METHOD] URL [items]
		ops := c.Operands()
		if len(ops) > 0 && httpMethods.Has(strings.ToUpper(ops[0])) {
			r.method = ops[0]
			ops = ops[1:]
		}
		if len(ops) > 0 {
			r.urls = ops[:1]
		}
	}
	r.method = strings.ToUpper(r.method)
	var urls []string
	for _, u := range r.urls {
		if strings.Contains(u, "://") || strings.Contains(u, ".") && !strings.HasPrefix(u, "@") && !strings.Contains(u, " ") ||
			strings.HasPrefix(u, ":") || strings.HasPrefix(strings.ToLower(u), "localhost") {
			urls = append(urls, u)
		}
	}
	r.urls = urls
	return r
}

// httpDataPorts are the default ports of services that hold data: search
// engines, brokers' management APIs, key-value stores, vector databases.
var httpDataPorts = rules.PkSet("9200", "9300", "5601", "15672", "8500", "2379", "8200", "8001", "8444", "6333", "6334",
	"8108", "7700", "8983", "19530", "8086", "8123", "5984", "7474", "8091", "8083", "8081", "9090", "4222", "8222")

// httpDataPaths are URL parts that name stored data.
var httpDataPaths = []string{"/_doc", "/_index", "/_data_stream", "/_snapshot", "/_ilm", "/_template", "/_component_template",
	"/_alias", "/_mapping", "/_settings", "/api/queues", "/api/exchanges", "/api/vhosts", "/api/bindings", "/v1/kv/",
	"/v2/keys", "/v3/kv", "/collections/", "/indexes/", "/solr/", "/v1/secret", "/v1/sys/mounts", "/admin/tsdb",
	"/api/v1/admin", "/buckets/", "/databases/", "/topics/", "/subjects/", "/connectors/"}

// httpDangerPaths are endpoints whose POST deletes or overwrites.
var httpDangerPaths = []string{"/_delete_by_query", "/_update_by_query", "/_restore", "/_close", "/_shrink", "/_rollover",
	"/_forcemerge", "/delete_series", "/_security/user", "/contents", "/purge", "/flush"}

func httpDataService(u string) bool {
	lu := strings.ToLower(u)
	h := lu
	if i := strings.Index(h, "://"); i >= 0 {
		h = h[i+3:]
	}
	hostport, path, _ := strings.Cut(h, "/")
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && httpDataPorts.Has(hostport[i+1:]) {
		return true
	}
	path = "/" + path
	for _, p := range httpDataPaths {
		if strings.Contains(path, p) {
			return true
		}
	}
	return false
}

func httpWipeAll(u string) bool {
	lu := strings.ToLower(u)
	if i := strings.Index(lu, "://"); i >= 0 {
		lu = lu[i+3:]
	}
	_, path, _ := strings.Cut(lu, "/")
	path = "/" + path
	return strings.Contains(path, "/_all") || strings.Contains(path, "*")
}

// httpMethodFinding judges the method against the URLs; ok=false leaves
// the call to the plain download/API rules.
func httpMethodFinding(c *shell.Cmd, r httpRequest, local bool) (rules.Finding, bool) {
	data, all := false, false
	for _, u := range r.urls {
		data = data || httpDataService(u)
		all = all || httpWipeAll(u)
	}
	switch r.method {
	case "DELETE":
		switch {
		case all && !local:
			return rules.PkRet(c, 2.6, 0.6, "net.http-delete-all", "sends an HTTP DELETE for every index or resource (_all or *) of a remote service")
		case all:
			return rules.PkRet(c, 2, 0.4, "net.http-delete-all", "sends an HTTP DELETE for every index or resource (_all or *)")
		case data && !local:
			return rules.PkRet(c, 2.2, 0.3, "net.http-delete-data", "sends an HTTP DELETE to a remote data service (an index, queue or key is deleted)")
		case data:
			return rules.PkRet(c, 1.8, 0.2, "net.http-delete-data", "sends an HTTP DELETE to a data service on this machine (an index, queue or key is deleted)")
		case !local:
			return rules.PkUnsure(c, 1.6, "net.http-delete", "sends an HTTP DELETE to a remote service")
		}
	case "POST", "PUT", "PATCH", "":
		for _, u := range r.urls {
			lu := strings.ToLower(u)
			for _, p := range httpDangerPaths {
				if strings.Contains(lu, p) && (data || strings.Contains(lu, "/_")) {
					if local {
						return rules.PkRet(c, 1.8, 0.2, "net.http-data-wipe", "calls "+p+" on a data service: documents are deleted or overwritten")
					}
					return rules.PkRet(c, 2.2, 0.3, "net.http-data-wipe", "calls "+p+" on a remote data service: documents are deleted or overwritten")
				}
			}
		}
		for _, u := range r.urls {
			if a := httpAdminAction(u); a != "" {
				if strings.Contains(strings.ToLower(u), "/credential") {
					return rules.PkRet(c, 2.6, 0.6, "net.http-admin-action", "calls "+a+" on a credential store: the secret is deleted or changed")
				}
				return rules.PkRet(c, 2.2, 0.3, "net.http-admin-action", "calls "+a+" on a server (Jenkins-style action: deletes, disables or wipes)")
			}
		}
		if r.method == "PUT" && data && !local {
			return rules.PkRet(c, 1.6, 0.2, "net.http-put-data", "sends a PUT to a remote data service: it replaces what is stored there")
		}
		if r.method != "" && !local {
			return rules.PkUnsure(c, 1, "net.http-write", "sends a "+r.method+" to a remote service (what it changes is not visible)")
		}
	}
	return rules.Finding{}, false
}

// httpAdminActions are the last path segments of web-admin action URLs
// (Jenkins and friends) that delete, disable or wipe what the path names.
var httpAdminActions = rules.PkSet("dodelete", "delete", "disable", "dowipeoutworkspace", "doremove", "dodisable", "dowipe", "doremoveall", "dodeleteall")

// httpAdminAction returns the action segment a POST ends in, or "".
func httpAdminAction(u string) string {
	lu := strings.ToLower(u)
	if i := strings.IndexAny(lu, "?#"); i >= 0 {
		lu = lu[:i]
	}
	if i := strings.Index(lu, "://"); i >= 0 {
		lu = lu[i+3:]
	}
	_, path, ok := strings.Cut(lu, "/")
	if !ok {
		return ""
	}
	path = strings.TrimSuffix(path, "/")
	seg := path[strings.LastIndexByte(path, '/')+1:]
	if httpAdminActions.Has(seg) {
		return seg
	}
	return ""
}
