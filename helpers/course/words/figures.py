"""The English words the course's figures use (titles, axis labels, legends), in each language.

Figures stay in English in every language (their titles, axis labels and legends are drawn by the
helpers, which the English notebooks' outputs share); each language's README
(tools/translations.py) shows this table so that a reader can read them. Per English word or phrase:
its Italian, Russian, Persian and Spanish translation. tests/project/test_translations.py checks that
each entry is a word a figure of the built English notebooks uses (in its alt text).
"""

LANGS = ("it", "ru", "fa", "es")

FIGURE_WORDS = {  # English: (it, ru, fa, es)
    "accuracy": ("accuratezza", "точность (доля верных)", "دقت (سهم پاسخ‌های درست)", "exactitud"),
    "Adam step": ("passo di Adam", "шаг Adam", "گام Adam", "paso de Adam"),
    "attention": ("attenzione", "внимание", "توجه", "atención"),
    "attention weight": ("peso dell'attenzione", "вес внимания", "وزن توجه", "peso de atención"),
    "batch": ("batch", "батч", "دسته", "lote"),
    "bits": ("bit", "биты", "بیت", "bits"),
    "chain": ("catena", "цепочка", "زنجیره", "cadena"),
    "closed": ("chiuso", "закрыт", "بسته", "cerrada"),
    "cosine similarity": (
        "similarità del coseno",
        "косинусное сходство",
        "شباهت کسینوسی",
        "similitud coseno",
    ),
    "delay": ("ritardo", "задержка", "تأخیر", "retardo"),
    "dimension": ("dimensione", "размерность", "بُعد", "dimensión"),
    "distance": ("distanza", "расстояние", "فاصله", "distancia"),
    "entropy": ("entropia", "энтропия", "آنتروپی", "entropía"),
    "forget bias": (
        "bias del forget gate",
        "смещение вентиля забывания",
        "بایاس دروازهٔ فراموشی",
        "sesgo del forget gate",
    ),
    "forward": ("passo in avanti", "прямой проход", "گذر رو به جلو", "pasada hacia delante"),
    "forward + backward": (
        "avanti + indietro",
        "прямой + обратный проход",
        "گذر رو به جلو + رو به عقب",
        "hacia delante + hacia atrás",
    ),
    "gate": ("gate", "вентиль", "دروازه", "compuerta (gate)"),
    "generation cost per token": (
        "costo di generazione per token",
        "стоимость генерации одного токена",
        "هزینهٔ تولید هر توکن",
        "coste de generación por token",
    ),
    "gradient norm": ("norma del gradiente", "норма градиента", "نرم گرادیان", "norma del gradiente"),
    "heads": ("teste", "головы", "سرها", "cabezas"),
    "history": ("storia", "история", "تاریخچه", "historia"),
    "input": ("input", "вход", "ورودی", "entrada"),
    "input scale": ("scala dell'input", "масштаб входа", "مقیاس ورودی", "escala de la entrada"),
    "key": ("chiave", "ключ", "کلید", "clave"),
    "layer": ("livello", "слой", "لایه", "capa"),
    "learning curves": (
        "curve di apprendimento",
        "кривые обучения",
        "منحنی‌های یادگیری",
        "curvas de aprendizaje",
    ),
    "linear": ("lineare", "линейная", "خطی", "lineal"),
    "log scale": ("scala logaritmica", "логарифмическая шкала", "مقیاس لگاریتمی", "escala logarítmica"),
    "mean": ("media", "среднее", "میانگین", "media"),
    "measured": ("misurato", "измерено", "اندازه‌گیری‌شده", "medido"),
    "median": ("mediana", "медиана", "میانه", "mediana"),
    "numbers kept": ("numeri conservati", "хранимые числа", "عددهای نگه‌داشته", "números guardados"),
    "open": ("aperto", "открыт", "باز", "abierta"),
    "orthogonal": ("ortogonale", "ортогональная", "متعامد", "ortogonal"),
    "output": ("output", "выход", "خروجی", "salida"),
    "peak GPU memory": (
        "memoria GPU di picco",
        "пиковая память GPU",
        "بیشینهٔ حافظهٔ GPU",
        "memoria máxima de la GPU",
    ),
    "position": ("posizione", "позиция", "موقعیت", "posición"),
    "power": ("potenza", "степень", "توان", "potencia"),
    "probability": ("probabilità", "вероятность", "احتمال", "probabilidad"),
    "query": ("query", "запрос", "پرس‌وجو", "consulta"),
    "recurrent": ("ricorrente", "рекуррентный", "بازگشتی", "recurrente"),
    "score": ("punteggio", "оценка", "امتیاز", "puntuación"),
    "self-attention": ("self-attention", "самовнимание", "خودتوجهی", "autoatención"),
    "sequence length": (
        "lunghezza della sequenza",
        "длина последовательности",
        "طول توالی",
        "longitud de la secuencia",
    ),
    "share kept": ("quota conservata", "сохранённая доля", "سهم حفظ‌شده", "fracción conservada"),
    "spectral radius": ("raggio spettrale", "спектральный радиус", "شعاع طیفی", "radio espectral"),
    "state": ("stato", "состояние", "حالت", "estado"),
    "state memory": ("memoria dello stato", "память состояния", "حافظهٔ حالت", "memoria del estado"),
    "steps back": ("passi indietro", "шагов назад", "گام به عقب", "pasos hacia atrás"),
    "temperature": ("temperatura", "температура", "دما", "temperatura"),
    "test accuracy": ("accuratezza sul test", "точность на тесте", "دقت آزمون", "exactitud en el test"),
    "time": ("tempo", "время", "زمان", "tiempo"),
    "time step": ("passo temporale", "шаг по времени", "گام زمانی", "paso de tiempo"),
    "tokens": ("token", "токены", "توکن‌ها", "tokens"),
    "uniform": ("uniforme", "равномерное", "یکنواخت", "uniforme"),
    "work per layer": ("lavoro per livello", "работа на слой", "کار هر لایه", "trabajo por capa"),
}


README = {  # each README's section on these words: heading, one sentence, the table's two column headers
    "it": (
        "Le parole delle figure",
        "Titoli, assi e legende delle figure restano in inglese: ecco le parole che usano, tradotte.",
        ("nella figura", "in italiano"),
    ),
    "ru": (
        "Слова на рисунках",
        "Заголовки, оси и легенды рисунков остаются на английском: вот слова, которые в них встречаются, "
        "с переводом.",
        ("на рисунке", "по-русски"),
    ),
    "fa": (
        "واژه‌های نمودارها",
        "عنوان‌ها، محورها و راهنمای نمودارها انگلیسی می‌مانند: این‌ها واژه‌هایی‌اند که به کار می‌برند، با ترجمه.",
        ("در نمودار", "به فارسی"),
    ),
    "es": (
        "Las palabras de las figuras",
        "Los títulos, ejes y leyendas de las figuras siguen en inglés: estas son las palabras que usan, "
        "traducidas.",
        ("en la figura", "en español"),
    ),
}


def figure_words_section(lang: str) -> str:
    """The README section of language `lang`: a heading, a sentence, the table of FIGURE_WORDS."""
    heading, sentence, (english, translated) = README[lang]
    column = LANGS.index(lang)
    rows = [
        f"| {en} | {words[column]} |"
        for en, words in sorted(FIGURE_WORDS.items(), key=lambda w: w[0].lower())
    ]
    return "\n".join([f"## {heading}", "", sentence, "", f"| {english} | {translated} |", "|---|---|", *rows])
