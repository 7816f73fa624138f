"""Italian: the verdicts and hints of helpers.check."""

VERDICTS = {
    "correct": "corretto!",
    "not_yet": "non ancora: {problem}.",
    "hint": "Suggerimento: {hint}",
    "not_attempted": (
        "non ancora svolto: sostituisci `raise NotImplementedError` con il tuo codice"
        " (bloccato? `helpers.hint({name!r})`)."
    ),
    "no_answer": (
        "non ancora svolto: sostituisci `None` con la tua risposta (bloccato? `helpers.hint({name!r})`)."
    ),
    "no_hint": "nessun suggerimento per questo: `helpers.solution({name!r})` mostra una soluzione svolta.",
    "raised": "il tuo codice ha sollevato {error}: {message}.",
    "returned_none": "la tua funzione ha restituito None (manca il `return`?)",
    "wants_function": "la risposta deve essere una funzione (il suo nome, senza chiamarla), invece è {kind}",
}

HINTS = {
    "softmax_cold_limit": "il peso del punteggio più alto, e^{s/tau}, domina tutti gli altri per tau -> 0.",
    "cold_softmax": (
        "per tau -> 0 ogni punteggio sotto il massimo riceve peso 0; i punteggi uguali al massimo (possono "
        "essere più d'uno) si dividono in parti uguali il peso totale di 1."
    ),
    "rnn_step": (
        "h_t = tanh(x_t W_xh^T + h_prev W_hh^T + b); le righe sono gli elementi del batch, quindi trasponi W."
    ),
    "input_projection": (
        "x @ W_xh.T funziona direttamente su (B, N, d_in): matmul fa il broadcasting su B e N."
    ),
    "stacked_depth": (
        "lo stato del livello 2 al passo t aspetta due stati: il proprio a t - 1 e quello del livello 1 a t. "
        "Segui il cammino più lungo fino a h_0."
    ),
    "wavefront_width": (
        "due stati si possono calcolare nello stesso momento solo se nessuno dei due aspetta l'altro: "
        "nel widget hanno lo stesso numero."
    ),
    "linear_rnn_jacobian": "in una RNN lineare lo jacobiano di ogni passo è la stessa matrice W_hh.",
    "tanh_step_jacobian": "tanh'(a) = 1 - tanh(a)^2 = 1 - h^2 scala la riga i di W_hh (non la colonna i).",
    "vanishing_bound": "ciascuno dei 50 jacobiani ha norma al più sigma_max * max|tanh'|.",
    "non_normal_peak": "l'elemento d'angolo di W^k domina la sua norma: confrontalo in k e in k + 1.",
    "sigmoid_bound": "qual è la pendenza massima della sigmoide, s (1 - s)? Fa la parte di gamma.",
    "residual_step_jacobian": (
        "h_{k-1} passa invariato, quindi il suo jacobiano I si somma a diag(1 - u_k^2) W_hh."
    ),
    "lstm_step": (
        "l'ordine dei gate è i, f, g, o; i, f, o usano la sigmoide, g usa tanh; "
        "c_t = f*c_prev + i*g e h_t = o*tanh(c_t)."
    ),
    "lstm_below_rnn": (
        "porta la lunghezza della sequenza a 500 e abbassa il bias del forget gate un passo alla volta; "
        "confronta dove finiscono la linea dell'LSTM e quella della RNN (triangoli)."
    ),
    "forget_bias_half": (
        "risolvi sigma(b)**100 = 0.5: prima il gate f = 0.5**(1/100), poi il b con sigma(b) = f, "
        "b = log(f / (1 - f))."
    ),
    "attention": (
        "i punteggi sono q @ k.transpose(-2, -1), divisi per sqrt(d_k) = sqrt(q.shape[-1]); softmax sulle "
        "chiavi (dim=-1), poi moltiplica per v."
    ),
    "score_spread": (
        "la varianza di q.k è d_k; la dispersione (deviazione standard) è la radice quadrata della varianza."
    ),
    "query_strength": (
        "il punteggio di un nome è forza * 1 / sqrt(d_k) con d_k = 4, quello di ogni "
        "altra parola è 0; scrivi la quota della softmax che va ai due nomi e ponila uguale a 0.9."
    ),
    "uniform_entropy": (
        "prima trova l'entropia di pesi uniformi su N chiavi, -sum (1/N) ln(1/N); poi confronta 2N con N."
    ),
    "mha_mask": (
        "costruisci prima la maschera nella convenzione di SDPA (True = attenzione consentita): "
        "helpers.causal_mask(L) & attention.padding_mask(lengths, L), che maschera le chiavi (colonne); poi "
        "invertila con ~."
    ),
    "split_heads": "usa view per ottenere (B, L, n_heads, hs), poi scambia L e n_heads con transpose(1, 2).",
    "shift_rotation": (
        "la coppia i ruota di omega_i = 10000 ** (-2 * i / d_model) radianti per posizione, quindi di "
        "omega_i * k dopo k posizioni; sviluppa sin(a + b) e cos(a + b). "
        "Restituisci un tensore float32 (2, 2)."
    ),
    "one_head_limit": (
        "quando i valori di W_q crescono, una sola softmax dà tutto il suo peso alle chiavi con il "
        "punteggio più alto, in parti uguali. Con una sola testa il punteggio è quello della parola "
        'precedente più quello grammaticale: quali chiavi di "on" hanno il punteggio più alto, e quante sono?'
    ),
    "mha_parameter_count": "in_proj è (3 d, d) più 3 d bias; out_proj è (d, d) più d bias.",
    "lstm_flops": (
        "un passo della LSTM calcola quattro gate, e ciascun gate si calcola come l'unico passo della RNN "
        "tanh: da x_t e h_(t-1), due prodotti (B, d) x (d, d) da 2 B d^2 FLOP ciascuno."
    ),
    "lstm_attention_break_even": (
        "uguaglia gli 8 B N d^2 + 4 B N^2 d dell'attenzione al conteggio della LSTM e risolvi rispetto a N: "
        "il fattore B N d si semplifica da entrambi i lati."
    ),
    "widget_flop_ratio": (
        "il titolo dà F_att / F_RNN = (8 B N d^2 + 4 B N^2 d) / (4 B N d^2): "
        "il batch B sopravvive alla divisione?"
    ),
    "most_frequent_token": (
        "conta ogni token per riga (torch.nn.functional.one_hot(x, 8).sum(1)), poi prendi l'argmax: "
        "restituisce il primo massimo, cioè l'id più piccolo."
    ),
    "order_blind_two_tokens": (
        "dividi in due casi. Con che probabilità i due token sono uguali, e in quel caso l'ipotesi è giusta? "
        "Se sono diversi, l'insieme non ordinato {a, b} non dice quale è venuto prima: quanto spesso "
        "un'ipotesi è giusta? Somma i due casi, pesati."
    ),
    "forget_bias_for_100": (
        "la quota conservata è f**T con f = sigma(b). Poni f**100 uguale a sigma(3)**30, ricava f, "
        "poi inverti la sigmoide: b = log(f / (1 - f))."
    ),
    "maxplus_combine": (
        "applica (a1, b1) a h, poi (a2, b2) al risultato: max(max(h + a1, b1) + a2, b2); "
        "l'aggiunta di a2 entra nel max interno, e il max di tre termini è un max di due."
    ),
    "scan_steps_million": (
        "dopo s passi ogni posizione contiene gli ultimi 2^s passi: la scansione finisce quando 2^s >= N."
    ),
    "attention_equals_lstm": (
        "uguaglia il conteggio di uno strato di attenzione a quello di uno strato LSTM, "
        "8 N d^2 + 4 N^2 d = 16 N d^2, e risolvi per d con N = 1024."
    ),
}
