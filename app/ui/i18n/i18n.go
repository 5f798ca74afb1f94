//go:build !nogui

// Package i18n holds the windows' translations (English and Simplified
// Chinese, embedded) on top of Fyne's lang package, which picks the
// language from the system locale (LANG=zh_CN.UTF-8 gives Chinese).
// Only what a person reads is translated: the deny reason sent to the
// agent and everything written to the audit log stay English.
package i18n

import (
	"embed"

	"fyne.io/fyne/v2/lang"
)

//go:embed translations
var translations embed.FS

func init() {
	// A broken embedded file would show English; it is checked by a test.
	_ = lang.AddTranslationsFS(translations, "translations")
}

// File returns one embedded translation file by name (ui.en.json,
// recent.zh_Hans.json, ...), for the windows' tests that check their
// table of texts against it.
func File(name string) ([]byte, error) { return translations.ReadFile("translations/" + name) }

// T translates s (the English text is the key). data fills {{.Name}}
// placeholders.
func T(s string, data ...map[string]any) string {
	if len(data) > 0 {
		return lang.L(s, data[0])
	}
	return lang.L(s)
}
