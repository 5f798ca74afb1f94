package rules

// fsLocalUserDirs are the user-data folders of the home under the names
// xdg-user-dirs gives them in other languages (a Chinese desktop has
// ~/文档, not ~/Documents), lower-cased like the paths they are matched
// against. Deleting one is deleting the user's own data, as for the
// English names in fsHomeKeys.
var fsLocalUserDirs = map[string]bool{
	// zh_CN
	"桌面": true, "下载": true, "文档": true, "图片": true, "音乐": true, "视频": true, "公共": true, "模板": true,
	// zh_TW / zh_HK
	"下載": true, "文件": true, "圖片": true, "音樂": true, "影片": true, "範本": true,
	// ja
	"デスクトップ": true, "ダウンロード": true, "ドキュメント": true, "画像": true, "ビデオ": true, "公開": true, "テンプレート": true,
	// ko
	"바탕화면": true, "다운로드": true, "문서": true, "사진": true, "음악": true, "비디오": true, "공개": true, "템플릿": true,
	// de, fr, es, it, pt, ru
	"schreibtisch": true, "dokumente": true, "bilder": true, "musik": true, "vorlagen": true, "öffentlich": true,
	"bureau": true, "téléchargements": true, "musique": true, "vidéos": true, "modèles": true,
	"escritorio": true, "descargas": true, "documentos": true, "imágenes": true, "música": true, "vídeos": true, "plantillas": true, "público": true,
	"scrivania": true, "documenti": true, "immagini": true, "musica": true, "video": true, "modelli": true, "pubblici": true, "scaricati": true,
	"área de trabalho": true, "transferências": true, "imagens": true, "modelos": true,
	"рабочий стол": true, "загрузки": true, "документы": true, "изображения": true, "музыка": true, "видео": true, "шаблоны": true, "общедоступные": true,
}

// fsGenericOutNames are build-output names that say nothing when they sit
// directly in the home folder: ~/bin holds the user's own scripts, ~/tmp
// and ~/build whatever the user put there. Below a project (~/app/build)
// they are output as anywhere else.
var fsGenericOutNames = map[string]bool{"build": true, "dist": true, "target": true, "out": true, "bin": true,
	"obj": true, "tmp": true, "temp": true, "cache": true, "registry": true, "coverage": true, "pip": true}
