"""ISO 639-1: every two-letter language code and its English names (the Library of Congress
list), so `--language French`, `fr` and `FR` are one language.

Data, not logic: `cardbase.collection.attributes` reads it. The first name is the one shown.
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
VARIANTS: dict[str, tuple[str, ...]] = {
    "zh-Hans": ("Chinese Simplified", "Simplified Chinese"),
    "zh-Hant": ("Chinese Traditional", "Traditional Chinese"),
    "pt-BR": ("Brazilian Portuguese", "Portuguese (Brazil)"),
}
