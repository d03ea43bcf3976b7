"""ISO 639-1: every two-letter language code and its English names (the Library of Congress
list), so `--language French`, `fr` and `FR` are one language; and the other codes collection
apps write, so that a file from one of them imports whole.

Data, not logic: `cardbase.collection.attributes` reads it. The first name is the one shown;
every other name is accepted, so an app's code for a language is listed as one of its names.

Scryfall's language codes (https://scryfall.com/docs/api/languages), which TopDecked and
other Scryfall-based apps write: en, es, fr, de, it, pt, ja, ko, ru, he, la, ar and sa are
ISO 639-1 codes already; zhs and zht are Scryfall's own, read as the BCP 47 tags zh-Hans and
zh-Hant that cardbase stores for Chinese; grc (Ancient Greek) and qya (Quenya) have ISO 639-2/3
codes, which BCP 47 takes as they are, so they are stored so. Phyrexian has no ISO code at all
(Scryfall's "ph" is its own, and ISO 639-1 may yet assign it): it is stored as the BCP 47
private-use tag "x-ph", which no standard will ever take, and "ph" and "Phyrexian" read as it.
Scryfall's printed codes (sp, jp, kr, cs, ct) are left out: "cs" is Czech.
"""

from __future__ import annotations

# code: English names, the first shown; the others are accepted too.
ISO_639_1: dict[str, tuple[str, ...]] = {
    "aa": ("Afar",), "ab": ("Abkhazian",), "ae": ("Avestan",), "af": ("Afrikaans",),
    "ak": ("Akan",), "am": ("Amharic",), "an": ("Aragonese",), "ar": ("Arabic",),
    "as": ("Assamese",), "av": ("Avaric",), "ay": ("Aymara",), "az": ("Azerbaijani",),
    "ba": ("Bashkir",), "be": ("Belarusian",), "bg": ("Bulgarian",),
    "bh": ("Bihari languages",), "bi": ("Bislama",), "bm": ("Bambara",), "bn": ("Bengali",),
    "bo": ("Tibetan",), "br": ("Breton",), "bs": ("Bosnian",), "ca": ("Catalan", "Valencian"),
    "ce": ("Chechen",), "ch": ("Chamorro",), "co": ("Corsican",), "cr": ("Cree",),
    "cs": ("Czech",), "cu": ("Church Slavic", "Old Church Slavonic"), "cv": ("Chuvash",),
    "cy": ("Welsh",), "da": ("Danish",), "de": ("German", "Deutsch"),
    "dv": ("Divehi", "Dhivehi", "Maldivian"), "dz": ("Dzongkha",), "ee": ("Ewe",),
    "el": ("Greek", "Modern Greek"), "en": ("English",), "eo": ("Esperanto",),
    "es": ("Spanish", "Castilian", "Español"), "et": ("Estonian",), "eu": ("Basque",),
    "fa": ("Persian", "Farsi"), "ff": ("Fulah",), "fi": ("Finnish",), "fj": ("Fijian",),
    "fo": ("Faroese",), "fr": ("French", "Français"), "fy": ("Western Frisian",),
    "ga": ("Irish",), "gd": ("Gaelic", "Scottish Gaelic"), "gl": ("Galician",),
    "gn": ("Guarani",), "gu": ("Gujarati",), "gv": ("Manx",), "ha": ("Hausa",),
    "he": ("Hebrew",), "hi": ("Hindi",), "ho": ("Hiri Motu",), "hr": ("Croatian",),
    "ht": ("Haitian", "Haitian Creole"), "hu": ("Hungarian",), "hy": ("Armenian",),
    "hz": ("Herero",), "ia": ("Interlingua",), "id": ("Indonesian",),
    "ie": ("Interlingue", "Occidental"), "ig": ("Igbo",), "ii": ("Sichuan Yi", "Nuosu"),
    "ik": ("Inupiaq",), "io": ("Ido",), "is": ("Icelandic",), "it": ("Italian", "Italiano"),
    "iu": ("Inuktitut",), "ja": ("Japanese",), "jv": ("Javanese",), "ka": ("Georgian",),
    "kg": ("Kongo",), "ki": ("Kikuyu", "Gikuyu"), "kj": ("Kuanyama", "Kwanyama"),
    "kk": ("Kazakh",), "kl": ("Kalaallisut", "Greenlandic"), "km": ("Central Khmer", "Khmer"),
    "kn": ("Kannada",), "ko": ("Korean",), "kr": ("Kanuri",), "ks": ("Kashmiri",),
    "ku": ("Kurdish",), "kv": ("Komi",), "kw": ("Cornish",), "ky": ("Kirghiz", "Kyrgyz"),
    "la": ("Latin",), "lb": ("Luxembourgish", "Letzeburgesch"), "lg": ("Ganda",),
    "li": ("Limburgish", "Limburgan", "Limburger"), "ln": ("Lingala",), "lo": ("Lao",),
    "lt": ("Lithuanian",), "lu": ("Luba-Katanga",), "lv": ("Latvian",), "mg": ("Malagasy",),
    "mh": ("Marshallese",), "mi": ("Maori",), "mk": ("Macedonian",), "ml": ("Malayalam",),
    "mn": ("Mongolian",), "mr": ("Marathi",), "ms": ("Malay",), "mt": ("Maltese",),
    "my": ("Burmese",), "na": ("Nauru",), "nb": ("Norwegian Bokmål", "Bokmål"),
    "nd": ("North Ndebele",), "ne": ("Nepali",), "ng": ("Ndonga",),
    "nl": ("Dutch", "Flemish"), "nn": ("Norwegian Nynorsk", "Nynorsk"), "no": ("Norwegian",),
    "nr": ("South Ndebele",), "nv": ("Navajo", "Navaho"), "ny": ("Chichewa", "Chewa", "Nyanja"),
    "oc": ("Occitan",), "oj": ("Ojibwa",), "om": ("Oromo",), "or": ("Oriya",),
    "os": ("Ossetian", "Ossetic"), "pa": ("Punjabi", "Panjabi"), "pi": ("Pali",),
    "pl": ("Polish",), "ps": ("Pashto", "Pushto"), "pt": ("Portuguese", "Português"),
    "qu": ("Quechua",), "rm": ("Romansh",), "rn": ("Rundi",),
    "ro": ("Romanian", "Moldavian", "Moldovan"), "ru": ("Russian",), "rw": ("Kinyarwanda",),
    "sa": ("Sanskrit",), "sc": ("Sardinian",), "sd": ("Sindhi",), "se": ("Northern Sami",),
    "sg": ("Sango",), "si": ("Sinhala", "Sinhalese"), "sk": ("Slovak",), "sl": ("Slovenian",),
    "sm": ("Samoan",), "sn": ("Shona",), "so": ("Somali",), "sq": ("Albanian",),
    "sr": ("Serbian",), "ss": ("Swati",), "st": ("Southern Sotho", "Sotho"),
    "su": ("Sundanese",), "sv": ("Swedish",), "sw": ("Swahili",), "ta": ("Tamil",),
    "te": ("Telugu",), "tg": ("Tajik",), "th": ("Thai",), "ti": ("Tigrinya",),
    "tk": ("Turkmen",), "tl": ("Tagalog", "Filipino"), "tn": ("Tswana",),
    "to": ("Tonga",), "tr": ("Turkish",), "ts": ("Tsonga",), "tt": ("Tatar",), "tw": ("Twi",),
    "ty": ("Tahitian",), "ug": ("Uighur", "Uyghur"), "uk": ("Ukrainian",), "ur": ("Urdu",),
    "uz": ("Uzbek",), "ve": ("Venda",), "vi": ("Vietnamese",), "vo": ("Volapük",),
    "wa": ("Walloon",), "wo": ("Wolof",), "xh": ("Xhosa",), "yi": ("Yiddish",),
    "yo": ("Yoruba",), "za": ("Zhuang", "Chuang"), "zh": ("Chinese",), "zu": ("Zulu",),
}  # fmt: skip

# Scripts and regions that collection apps tell apart within one language: BCP 47 tags.
# Also the languages with no two-letter code that cards are printed in (Scryfall's list).
VARIANTS: dict[str, tuple[str, ...]] = {
    "zh-Hans": ("Chinese Simplified", "Simplified Chinese", "zhs"),
    "zh-Hant": ("Chinese Traditional", "Traditional Chinese", "zht"),
    "pt-BR": ("Brazilian Portuguese", "Portuguese (Brazil)"),
    "grc": ("Ancient Greek", "grc"),
    "qya": ("Quenya", "qya"),
    "x-ph": ("Phyrexian", "ph", "x-ph"),
}
# Scryfall's language codes and the tag cardbase stores for each (the table above says why).
SCRYFALL_LANGUAGES: dict[str, str] = {
    **{code: code for code in ("en", "es", "fr", "de", "it", "pt", "ja", "ko", "ru", "he",
                               "la", "ar", "sa", "grc", "qya")},
    "zhs": "zh-Hans", "zht": "zh-Hant", "ph": "x-ph",
}  # fmt: skip

# The client's languages named in the client's languages: a German collector's sheet says
# "Englisch" and "Französisch", a French one "Anglais". Read as the English names are.
LOCAL_NAMES: dict[str, tuple[str, ...]] = {
    "en": ("Englisch", "Anglais", "Inglés", "Inglês", "英语"),
    "de": ("Deutsch", "Allemand", "Alemán", "Alemão", "德语"),
    "fr": ("Französisch", "Français", "Francés", "Francês", "法语"),
    "es": ("Spanisch", "Espagnol", "Español", "Espanhol", "西班牙语"),
    "pt": ("Portugiesisch", "Portugais", "Portugués", "Português", "葡萄牙语"),
    "zh": ("Chinesisch", "Chinois", "Chino", "Chinês", "中文", "汉语"),
    "it": ("Italienisch", "Italien", "Italiano"),
    "ja": ("Japanisch", "Japonais", "Japonés", "Japonês", "日语"),
}
