"""Persian (Farsi): the verdicts and hints of helpers.check."""

VERDICTS = {
    "correct": "درست است!",
    "not_yet": "هنوز نه: {problem}.",
    "hint": "راهنمایی: {hint}",
    "not_attempted": "هنوز حل نشده است: `raise NotImplementedError` را با کد خودتان جایگزین کنید.",
    "raised": "کد شما خطای {error} ایجاد کرد: {message}.",
    "returned_none": "تابع شما None برگرداند (آیا `return` جا افتاده است؟)",
    "wants_function": "پاسخ شما باید یک تابع باشد (نام آن، بدون فراخوانی‌اش)، اما {kind} دریافت شد",
}

HINTS = {
    "softmax_cold_limit": "وقتی tau -> 0، وزن بزرگ‌ترین امتیاز، e^{s/tau}، بر همهٔ وزن‌های دیگر چیره می‌شود.",
    "cold_softmax": (
        "وقتی tau -> 0، هر امتیازی که کمتر از بیشینه باشد وزن 0 می‌گیرد؛ امتیازهای برابر با بیشینه "
        "(ممکن است چند تا باشند) وزن کل 1 را به‌تساوی میان خود تقسیم می‌کنند."
    ),
    "rnn_step": (
        "h_t = tanh(x_t W_xh^T + h_prev W_hh^T + b)؛ سطرها اعضای دسته (batch) هستند، پس W را ترانهاده کنید."
    ),
    "input_projection": (
        "x @ W_xh.T مستقیماً روی (B, N, d_in) کار می‌کند: matmul روی B و N پخش (broadcast) می‌شود."
    ),
    "dependent_steps": "پیکان‌های میان h_0 و h_100 را در زنجیرهٔ بازشده بشمارید.",
    "linear_rnn_jacobian": "در یک RNN خطی، ژاکوبی هر گام همان ماتریس W_hh است.",
    "tanh_step_jacobian": (
        "tanh'(a) = 1 - tanh(a)^2 = 1 - h^2 سطر i ماتریس W_hh را مقیاس می‌کند (نه ستون i را)."
    ),
    "vanishing_bound": "نرم هر یک از 50 ژاکوبی حداکثر sigma_max * max|tanh'| است.",
    "lstm_step": (
        "ترتیب دروازه‌ها i, f, g, o است؛ i, f, o از sigmoid و g از tanh استفاده می‌کند؛ "
        "c_t = f*c_prev + i*g و h_t = o*tanh(c_t)."
    ),
    "cell_path": "در مسیر سلول dc_t/dc_{t-1} = diag(f_t) است؛ روی t (dim 0) در هم ضرب کنید.",
    "steps_to_one_percent": (
        "کوچک‌ترین عدد صحیح T را بیابید که 0.9**T < 0.01 باشد: T > log(0.01) / log(0.9)."
    ),
    "attention": (
        "امتیازها q @ k.transpose(-2, -1) هستند، تقسیم بر sqrt(d_k) = sqrt(q.shape[-1])؛ سافت‌مکس روی "
        "کلیدها (dim=-1)، سپس ضرب در v."
    ),
    "score_spread": ("واریانس q.k برابر d_k است؛ پراکندگی (انحراف معیار) ریشهٔ دوم واریانس است."),
    "query_strength": (
        "امتیاز یک اسم برابر شدت * 1 / sqrt(d_k) با d_k = 4 است و امتیاز "
        "هر واژهٔ دیگر 0؛ سهم دو اسم از softmax را بنویسید و آن را برابر 0.9 قرار دهید."
    ),
    "uniform_entropy": ("وزن‌های یکنواخت هر کدام 1/S هستند؛ -sum (1/S) ln(1/S) = ln S (لگاریتم طبیعی)."),
    "mha_mask": (
        "نخست ماسک را با قرارداد SDPA بسازید (True = مجاز به توجه): "
        "helpers.causal_mask(L) & attention.padding_mask(lengths, L)، که کلیدها (ستون‌ها) را ماسک "
        "می‌کند؛ سپس آن را با ~ وارونه کنید."
    ),
    "split_heads": (
        "آن را با view به شکل (B, L, n_heads, hs) درآورید، سپس جای L و n_heads را با "
        "transpose(1, 2) عوض کنید."
    ),
    "shift_rotation": (
        "جفت i به ازای هر موقعیت به اندازهٔ omega_i = 10000 ** (-2 * i / d_model) رادیان می‌چرخد، پس "
        "k موقعیت بعد به اندازهٔ omega_i * k؛ sin(a + b) و cos(a + b) را بسط دهید. "
        "یک تانسور float32 با شکل (2, 2) برگردانید."
    ),
    "mha_parameter_count": (
        "in_proj به شکل (3 d, d) است به‌علاوهٔ 3 d بایاس؛ out_proj به شکل (d, d) است به‌علاوهٔ d بایاس."
    ),
    "rnn_flops": "هر یک از N گام دو matmul از نوع (B, d) x (d, d) انجام می‌دهد؛ هر کدام 2 B d^2 هزینه دارد.",
    "attention_flops": (
        "چهار تصویر (projection) از نوع (B N, d) x (d, d) (q, k, v, out)، سپس Q K^T و A V، هر کدام "
        "2 B N^2 d؛ هر ضرب-جمع 2 FLOP حساب می‌شود."
    ),
    "ten_times_the_flops": "معادلهٔ N/d + 2 = 10 را با d = 128 برای N حل کنید.",
    "most_frequent_token": (
        "هر توکن را در هر سطر بشمارید (torch.nn.functional.one_hot(x, 8).sum(1))، سپس argmax را بگیرید: "
        "اولین بیشینه را برمی‌گرداند، یعنی کوچک‌ترین id را."
    ),
    "order_blind_two_tokens": (
        "مسئله را به دو حالت تقسیم کنید. احتمال برابر بودن دو توکن چقدر است و در آن حالت آیا حدس "
        "درست است؟ اگر متفاوت باشند، کیسهٔ {a, b} نمی‌گوید کدام زودتر آمده است: حدس چند بار درست "
        "است؟ دو حالت را با وزن‌هایشان جمع کنید."
    ),
    "combine": (
        "(a1, b1) را بر h اعمال کنید، سپس (a2, b2) را بر نتیجه: a2 * (a1 * h + b1) + b2، و a و b "
        "جدید را از آن بخوانید."
    ),
    "scan_steps_1000": "فاصله در هر گام دو برابر می‌شود: 1, 2, 4, ... تا به N برسد.",
}
