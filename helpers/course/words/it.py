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
    "not_right": "{what}: {value}, non è il valore giusto",
    "not_whole": "{what}: {value}, ma deve essere un numero intero",
    "not_exact": (
        "{what}: {value}, vicino ma non esatto: scrivi il valore esatto (va bene un'espressione come 2/3 "
        "o math.sqrt(2))"
    ),
    "number_got_tensor": "{what} deve essere un numero, invece è un tensore di dtype {dtype}",
    "number_got_array": "{what} deve essere un numero, invece è un array numpy di dtype {dtype}",
    "single_got_tensor": "{what} deve essere un solo numero, invece è un tensore di forma {shape}",
    "single_got_array": "{what} deve essere un solo numero, invece è un array numpy di forma {shape}",
    "number_got_bool": "{what} deve essere un numero, invece è il booleano {value}",
    "number_got_function": (
        "{what} deve essere un numero, invece è una funzione: chiamala, o scrivi direttamente il valore"
    ),
    "number_got_string": "{what} deve essere un numero, invece è la stringa {value}: togli le virgolette",
    "number_got_type": "{what} deve essere un numero, invece è di tipo {kind}",
    "wants_tensor": "{what} deve essere un torch.Tensor, invece è di tipo {kind}",
    "wrong_shape": "{what} ha forma {shape}, attesa {expected}",
    "wrong_dtype": "{what} ha dtype {dtype}, atteso {expected}",
    "wrong_values": "{what} ha la forma giusta ma valori sbagliati (differenza massima {difference})",
    "wants_tuple": "{what} deve essere una tupla di {n} valori, invece è di tipo {kind}",
    "tuple_length": "{what} deve essere una tupla di {n} valori, invece ne ha {got}",
    "your_answer": "la tua risposta",
    "answer": "risposta",
    "cannot_draw": "Impossibile disegnarlo: {error}",
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
        "confronta dove finiscono la linea della LSTM e quella della RNN (triangoli)."
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
        "precedente più quello grammaticale: quali chiavi di «on» hanno il punteggio più alto, e quante sono?"
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

PHRASES = {
    "a single row of scores": "una sola riga di punteggi",
    "scores of shape (3, 3, 5)": "punteggi di forma (3, 3, 5)",
    "every score times 1e30": "ogni punteggio moltiplicato per 1e30",
    "its result on a single row of scores": "il suo risultato su una sola riga di punteggi",
    "its result on scores of shape (3, 3, 5)": "il suo risultato su punteggi di forma (3, 3, 5)",
    "its result on every score times 1e30": "il suo risultato con ogni punteggio moltiplicato per 1e30",
}

SENTENCES = {
    "it fails on {what}: {error}": "fallisce su {what}: {error}",
    (
        "your function raised {error} on inputs that require grad (the check counts its operations with "
        "autograd): use torch operations on x"
    ): (
        "la tua funzione ha sollevato {error} con input che richiedono il gradiente (il controllo conta "
        "le sue operazioni con autograd): usa operazioni di torch su x"
    ),
    (
        "your result is not connected to x by autograd (detached, or computed outside PyTorch), so the "
        "check cannot count its operations: use torch operations on x"
    ): (
        "il tuo risultato non è collegato a x da autograd (staccato, o calcolato fuori da PyTorch), "
        "quindi il controllo non può contarne le operazioni: usa operazioni di torch su x"
    ),
    (
        "your function runs {short} operations on a sequence of 3 steps and {long} on one of 12: a loop "
        "over t? One matmul on the whole (B, N, d_in) tensor covers every t"
    ): (
        "la tua funzione esegue {short} operazioni su una sequenza di 3 passi e {long} su una di 12: un "
        "ciclo su t? Un solo matmul sull'intero tensore (B, N, d_in) copre ogni t"
    ),
}

LABELS = {
    "W_q entries": "elementi di W_q",
    "batch size B": "dimensione del batch B",
    "batch size": "dimensione del batch",
    "heads": "teste",
    "input scale": "scala dell'input",
    "sequence length N": "lunghezza della sequenza N",
    "sequence length": "lunghezza della sequenza",
    "width d": "larghezza d",
    "eigenvalue λ (= ρ)": "autovalore λ (= ρ)",
    "forget bias": "bias del forget gate",
    "layers": "livelli",
    "off-diagonal coupling": "accoppiamento fuori diagonale",
    "spectral radius ρ": "raggio spettrale ρ",
    "temperature": "temperatura",
    "time steps N": "passi temporali N",
    "training step": "passo di addestramento",
}

COURSE_MAP = {
    "header": [
        "notebook",
        "che cosa mostra",
        "affermazioni",
    ],
    "00_start_here": "Inizia da qui",
    "01_recurrence": "Ricorrenza: che cosa si può calcolare in parallelo e che cosa no",
    "02_bptt_gradients": "BPTT: il gradiente come prodotto di jacobiani",
    "03_lstm_gating": "Il gating delle LSTM",
    "04_attention": "Attenzione a prodotto scalare scalato",
    "05_multihead_positions": "Attenzione multi-head e posizioni",
    "06_parallelism_cost": "Parallelismo e costo, misurati",
    "07_long_range_memory": "Memoria a lungo raggio, addestramento dal vivo",
    "08_verdict": "Il verdetto",
}

SHORT_LEDGER = {
    "header": [
        "",
        "l'articolo dice",
        "verdetto",
        "dove",
    ],
    "C1": (
        "una RNN non può essere parallelizzata nel tempo",
        "vero per la RNN tanh; una lineare, elemento per elemento, si calcola con una scansione parallela",
    ),
    "C2": (
        "autovalore < 1: svanisce; > 1: esplode",
        (
            "meccanismo giusto; un valore singolare massimo sotto 1 garantisce che il gradiente svanisca, "
            "e l'autovalore fissa solo il tasso di una RNN lineare"
        ),
    ),
    "C3": (
        "le LSTM lasciano scorrere i gradienti, eppure dimenticano",
        "per lo più giusto: il percorso della cella aiuta solo finché il forget gate resta aperto",
    ),
    "C4": (
        "ogni token vede ogni altro, tutti insieme",
        "vero in addestramento; la generazione resta un token per passo",
    ),
    "C5": (
        "un percorso O(1) elimina i gradienti che svaniscono, per milioni di token",
        (
            "giusto sulla distanza: nessun decadimento; sbagliato sulla scala: costo O(N^2), fallimenti "
            "documentati sui contesti lunghi"
        ),
    ),
    "C6": (
        "l'attenzione ha bisogno delle posizioni: non ha ordine",
        "vero senza maschera causale; una maschera causale da sola rompe la simmetria",
    ),
    "C7": (
        "il frammento di cronometraggio mostra l'attenzione che vince",
        (
            "non su un thread di CPU; sulla GPU l'attenzione batte la LSTM che ha sostituito, e perde "
            "contro la RNN tanh, molto più economica"
        ),
    ),
    "C8": (
        "la tabella delle complessità",
        "giusta ma incompleta: mancano il costo della generazione e la memoria dello stato",
    ),
}

WORKED = {  # solution()'s worked answers (its code lines as the English has them)
    "softmax_cold_limit": (
        "Dividi per e^{s_max/tau}: p_max = 1 / (1 + sum_{j != max} e^{(s_j - s_max)/tau}).\n"
        "Ogni esponente (s_j - s_max)/tau è negativo e tende a -inf per tau -> 0: ogni termine -> 0.\n"
        "Quindi p_max -> 1 / (1 + 0) = 1 (quando il punteggio più alto è unico, come 2 qui); gli altri "
        "-> 0."
    ),
    "stacked_depth": (
        "Il livello 1 è la catena di questo notebook: il suo stato a t aspetta t passi.\n"
        "Lo stato del livello 2 a t ha bisogno di quello del livello 1 a t (t passi) e del proprio a t "
        "- 1, poi di un passo in più.\n"
        "Quindi è pronto dopo t + 1 passi: lo stato in cima a t = 100 dopo 101, non 200.\n"
        "I 200 passi in tutto non girano uno dopo l'altro: il livello 2 può partire appena il livello 1 "
        "ha\n"
        "il suo primo stato. (Sulla CPU, nn.RNN(num_layers=2) fa girare prima il livello 1 fino in "
        "fondo: il suo grafo\n"
        "ha una catena di 200, perché dà al livello 2 tutti i suoi input in un solo matmul.)"
    ),
    "wavefront_width": (
        "Uno stato al livello l e al passo t è pronto dopo t + l - 1 passi.\n"
        "Gli stati che condividono quel numero non aspettano nessuno degli altri: possono girare fianco "
        "a fianco.\n"
        "Ogni livello ha un solo stato con un dato numero, quindi al più 3 lo condividono (con 8 passi "
        ">= 3 livelli).\n"
        "Impilare i livelli dà all'hardware parallelo uno stato per livello da calcolare insieme, mai "
        "di più."
    ),
    "vanishing_bound": (
        "Lo jacobiano di un passo è diag(tanh'(a_t)) W_hh: la sua norma è al più max|tanh'| * 0.9 = "
        "0.9.\n"
        "La norma di un prodotto è al più il prodotto delle norme: 50 fattori, ciascuno <= 0.9.\n"
        "Quindi ||dh_50/dh_0|| <= 0.9**50 = 0.005154, qualunque siano gli input."
    ),
    "non_normal_peak": (
        "W^k = [[0.85^k, 5 k 0.85^(k-1)], [0, 0.85^k]], e l'elemento d'angolo domina la sua norma.\n"
        "Da k a k + 1 quell'elemento è moltiplicato per 0.85 (k + 1) / k,\n"
        "che è sopra 1 finché k < 0.85 / 0.15 = 5.67.\n"
        "Quindi cresce fino a k = 6 e poi cala: la gobba ha il picco a k = 6."
    ),
    "sigmoid_bound": (
        "Lo jacobiano di un passo è diag(sigmoid'(z_k)) W_hh, e sigmoid' = s (1 - s) <= 1/4.\n"
        "Quindi ogni fattore ha norma al più 3 / 4 < 1: che il gradiente svanisca è garantito, anche "
        "se sigma_max = 3 > 1.\n"
        "Venti fattori: ||dh_20/dh_0|| <= (3/4)**20 = 0.003171."
    ),
    "lstm_below_rnn": (
        "Previsto dal solo percorso della cella: si riduce di un fattore sigma(b_f) per passo, la RNN "
        "predefinita\n"
        "di un fattore circa 0.455, e sigma(b_f) < 0.455 per ogni b_f <= -0.5, quindi la LSTM dovrebbe "
        "scendere sotto la RNN\n"
        "già a -0.5. Il widget a T = 500: a -0.5 la LSTM è ancora molto sopra la RNN (circa 2e-156\n"
        "contro 6e-171); a -1 scende sotto (circa 2e-208). Il bias più basso ancora sopra è -0.5: i "
        "percorsi\n"
        "attraverso h e W_hh tengono il gradiente della LSTM sopra quello che prevedono i soli forget "
        "gate."
    ),
    "forget_bias_half": (
        "Ogni passo conserva f = sigma(b) del percorso della cella, quindi 100 passi conservano f**100 = "
        "1/2:\n"
        "f = 0.5**0.01 = 0.99309. sigma(b) = f  <=>  b = log(f / (1 - f)) = 4.968:\n"
        "il gate deve partire quasi del tutto aperto."
    ),
    "one_head_limit": (
        "Con una sola testa, il punteggio di una chiave è il suo punteggio di parola precedente più "
        "quello grammaticale.\n"
        "«on» (una preposizione in posizione 3) riceve un'unità da «sat» (la sua parola precedente) e "
        "una ciascuno da «cat» e «mat» (nomi).\n"
        "Tre chiavi sono pari al punteggio più alto; quando gli elementi di W_q crescono, la softmax "
        "divide il suo peso di 1 in parti uguali tra loro: 1/3 = 0.3333 ciascuna."
    ),
    "mha_parameter_count": (
        "in_proj: 3 d x d pesi + 3 d bias; out_proj: d x d pesi + d bias.\n"
        "Le 8 teste condividono queste matrici (ciascuna legge d / 8 colonne): nessun parametro in più.\n"
        "Con d = 64: 4*64*64 + 4*64 = 16384 + 256 = 16640."
    ),
    "score_spread": (
        "q.k = q_1 k_1 + ... + q_256 k_256: 256 termini indipendenti di varianza 1.\n"
        "Le varianze si sommano: Var(q.k) = d_k = 256.\n"
        "La dispersione è la sua radice quadrata: sqrt(256) = 16. Dopo la divisione per sqrt(d_k) "
        "sarebbe 1."
    ),
    "uniform_entropy": (
        "Uniforme su N chiavi: p_j = 1/N, quindi H(N) = -N * (1/N) * ln(1/N) = ln N.\n"
        "H(2N) - H(N) = ln 2N - ln N = ln 2, qualunque sia N.\n"
        "math.log(2) = 0.6931 nat (1 bit)."
    ),
    "query_strength": (
        "I nomi hanno punteggio c / sqrt(4) = c / 2; le altre 4 parole 0.\n"
        "La loro quota: 2 e^{c/2} / (2 e^{c/2} + 4) = 0.9, quindi 0.2 e^{c/2} = 3.6 ed e^{c/2} = 18.\n"
        "c = 2 ln 18 = 5.781 (senza sqrt(d_k) sarebbe ln 18)."
    ),
    "lstm_flops": (
        "Ciascuno degli N passi calcola quattro gate (input, forget, cella, output),\n"
        "ciascuno da x_t W^T e h W^T: otto matmul (B, d) x (d, d) per passo, da 2 B d^2 FLOP ciascuno;\n"
        "i bias e le non linearità non si contano.\n"
        "def lstm_flops(B, N, d): return N * 8 * (2 * B * d**2)   # = 16 B N d^2, four times the tanh "
        "RNN\n"
        "per esempio B, N, d = 2, 9, 16: 16 * 2 * 9 * 16**2 = 73728."
    ),
    "lstm_attention_break_even": (
        "La LSTM fa 16 B N d^2 (quattro gate, due prodotti ciascuno), l'attenzione 8 B N d^2 + 4 B N^2 "
        "d.\n"
        "Sono uguali quando 16 d = 8 d + 4 N, cioè N = 2 d = 256 per d = 128.\n"
        "Sopra N = 256 l'attenzione fa più FLOP della LSTM; a N = 512, 1.5 volte tanti."
    ),
    "widget_flop_ratio": (
        "F_att / F_RNN = (8 B N d^2 + 4 B N^2 d) / (4 B N d^2) = 2 + N / d: il batch si semplifica.\n"
        "A N = 256, d = 128: 2 + 2 = 4, con batch 1 come con batch 32."
    ),
    "order_blind_two_tokens": (
        "La query x_2 è nota per essere l'ultima; x_0 è uno dei due token prima di lei.\n"
        "Sono uguali con probabilità 1/8: l'insieme {a, a} rivela il primo token.\n"
        "Sono diversi con probabilità 7/8: {a, b} poteva cominciare con l'uno o l'altro token,\n"
        "quindi un'ipotesi è giusta metà delle volte.\n"
        "Accuratezza = 1/8 * 1 + 7/8 * 1/2 = 2/16 + 7/16 = 9/16 = 0.5625."
    ),
    "forget_bias_for_100": (
        "sigma(b)**100 = sigma(3)**30, quindi f = sigma(b) = sigma(3)**0.3 = 0.98553.\n"
        "b = log(f / (1 - f)) = log(0.98553 / 0.01447) = 4.2211.\n"
        "Alzare il bias di circa 1.2 sopra +3 basta a più che triplicare il ritardo."
    ),
    "scan_steps_million": (
        "Il passo s combina a distanza 2^(s-1): dopo s passi, la posizione t contiene gli ultimi 2^s "
        "passi.\n"
        "La scansione è finita quando 2^s >= N = 1 000 000: 2^19 = 524 288 è troppo poco, 2^20 = "
        "1 048 576 basta.\n"
        "Quindi ceil(log2 10^6) = 20 passi, contro 1 000 000 del ciclo."
    ),
    "attention_equals_lstm": (
        "8 N d^2 + 4 N^2 d = 16 N d^2 dà 4 N^2 d = 8 N d^2, quindi N = 2 d.\n"
        "A N = 1024 è d = 512: l'etichetta del widget allora dice attention = N/d + 2 = 4 x RNN, cioè i "
        "16 N d^2 / 4 N d^2 della LSTM."
    ),
}

# 08's claims ledger (ledger.claims_ledger): the header, the word for no literature, and per claim
# (said, verdict, measured, literature)
CLAIMS_LEDGER = {
    "header": ["", "l'articolo dice", "verdetto onesto", "misurato qui", "dalla letteratura", "dove"],
    "none": "nessuna",
    "C1": (
        "h_t ha bisogno di h_{t-1}, quindi una RNN non si può parallelizzare nel tempo",
        (
            "vero per la RNN tanh: non si conosce alcuna scorciatoia esatta, solo risolutori iterativi che "
            "costano molte volte il lavoro (circa 60-400 volte i FLOP dei matmul del ciclo nel 01, d_h = 4, "
            "a "
            "seconda di W_hh e della scansione; di più per stati più larghi); la proiezione dell'input è un "
            "solo matmul, e una ricorrenza lineare, elemento per elemento, si parallelizza (una scansione, "
            "una convoluzione, blocchi)"
        ),
        (
            "la profondità N della catena contata nel grafo di nn.RNN, e il suo tempo confrontato con gli "
            "stessi FLOP in una sola chiamata, da B = 1 a 64; le iterazioni di Newton contate (01); una "
            "scansione, una convoluzione e i blocchi uguali al ciclo (08)"
        ),
        (
            "risolutori iterativi per ricorrenze non lineari: Lim et al. 2024; la scansione (Hillis & Steele "
            "1986; Blelloch 1990; Martin & Cundy 2018); quale modello la calcola e come: Gu et al. 2022 "
            "(S4), "
            "Peng et al. 2023 (RWKV), Gu & Dao 2023 (Mamba), Dao & Gu 2024 (Mamba-2), Feng et al. 2024 "
            "(minGRU)"
        ),
    ),
    "C2": (
        "i gradienti della BPTT svaniscono se l'autovalore massimo di W_hh è < 1, esplodono se è > 1",
        (
            "il meccanismo è giusto, la condizione imprecisa: il valore singolare massimo moltiplicato "
            "per il limite superiore di tanh', se sotto 1, è una condizione sufficiente perché il gradiente "
            "svanisca (Pascanu "
            "et "
            "al. 2013), e sopra 1 è necessario, non sufficiente, perché esploda; il tasso esatto nel lungo "
            "periodo è il raggio spettrale rho per una RNN lineare e il massimo esponente di Lyapunov per "
            "una "
            "RNN tanh, dove, con input di dimensione unitaria, la saturazione della tanh fa svanire il "
            "gradiente perfino con un autovalore di 1.1"
        ),
        (
            "le norme del gradiente confrontate con il raggio spettrale, W_hh ortogonale e gaussiana, la "
            "gobba delle matrici non normali, la saturazione della tanh e il tasso nel lungo periodo della "
            "RNN tanh, verificati con autograd (02)"
        ),
        "la condizione sufficiente sul valore singolare massimo: Pascanu, Mikolov & Bengio 2013",
    ),
    "C3": (
        (
            "i gate delle LSTM lasciano scorrere i gradienti, eppure dimenticano oltre qualche centinaio di "
            "token"
        ),
        (
            "per lo più giusto: il percorso della cella aiuta solo finché il forget gate resta aperto (bias "
            "del forget gate circa 1 o più), e con un piccolo budget di addestramento la LSTM non riesce a "
            "ottimizzare, non a ricordare; il flusso del gradiente e la memoria di dimensione fissa sono due "
            "fallimenti diversi"
        ),
        (
            "il gradiente attraverso tutti i cammini confrontato con il bias del forget gate, con il "
            "prodotto "
            "dei forget gate come guida, all'inizializzazione (03); il richiamo dopo T = 10, 30, 100 passi "
            "entro 200 passi di Adam, su un compito sintetico (07); il massimo che uno stato di dimensione "
            "fissa può contenere alle dimensioni di AWD-LSTM, da 11\u202f503 a 13\u202f004 token, molto più "
            "dei 200 che usano: la capacità non li spiega (03)"
        ),
        (
            "«qualche centinaio di token»: Khandelwal et al. 2018 (i modelli linguistici LSTM usano circa "
            "200 token di contesto); ritardi di 1000 passi appresi con addestramenti lunghi: Hochreiter & "
            "Schmidhuber 1997"
        ),
    ),
    "C4": (
        "la self-attention fa interagire ogni token con ogni altro, tutti insieme",
        "vero in addestramento e nella codifica; la generazione resta un token per passo",
        (
            "un solo matmul dà tutti gli N x N punteggi; le uscite causali calcolate una posizione alla "
            "volta sono uguali a quelle calcolate tutte insieme (04)"
        ),
        "",
    ),
    "C5": (
        "un percorso di lunghezza O(1) elimina i gradienti che svaniscono; milioni di token, facilmente",
        (
            "giusto sulla distanza, sbagliato sulla scala: con le posizioni, il percorso di lunghezza 1 dà "
            "un "
            "gradiente che non decade con la distanza, e aiuta il richiamo; ma il costo è O(N^2) e i "
            "contesti lunghi falliscono in pratica. Il ~1/N dell'attenzione diffusa è la derivata di una "
            "media: rallenta l'apprendimento di dove prestare attenzione, e non è un gradiente che svanisce "
            "nel senso di Bengio et al. 1994 o di Pascanu et al. 2013"
        ),
        (
            "il gradiente confrontato con la distanza e la sua quota 1/N fino a N = 4096 (04); il richiamo a "
            "T = 100 (07); i FLOP O(N^2 d) e una cache O(N d), contati (08)"
        ),
        (
            "i contesti lunghi falliscono in pratica: Liu et al. 2024 (lost in the middle), Hsieh et al. "
            "2024 (RULER); nulla qui gira su milioni di token"
        ),
    ),
    "C6": (
        "le codifiche posizionali servono perché l'attenzione non ha ordine",
        (
            "vero senza maschera causale: la self-attention è allora equivariante per permutazioni "
            "(esattamente, a meno dell'arrotondamento in virgola mobile), e non può imparare un compito in "
            "cui conta solo l'ordine; una maschera causale da sola rompe la simmetria"
        ),
        (
            "l'uguaglianza MHA(Px) = P MHA(x) a meno dell'arrotondamento, rotta dalla codifica o da una "
            "maschera causale "
            "(05); senza posizioni, limitata dal tetto cieco all'ordine, vicina a esso a T = 10 e 30 (07)"
        ),
        (
            "i modelli linguistici senza codifica posizionale imparano comunque le posizioni, cosa che gli "
            "autori attribuiscono alla maschera causale: Haviv et al. 2022"
        ),
    ),
    "C7": (
        "il frammento di cronometraggio mostra l'attenzione che batte il ciclo della RNN",
        (
            "l'articolo lo lascia intendere, ma il frammento non stampa alcun numero. Non su un thread di "
            "CPU "
            "con batch 32 (ogni cronometraggio su CPU nel 06 gira con THREADS = 1): il frammento misura una "
            "sola volta, a freddo, e l'attenzione fa N/d + 2 volte il lavoro della RNN tanh. Su una GPU "
            "H200, con B = 32, N = 512, d = 128, fp32, l'attenzione (0.37-0.45 ms in forward, 1.57-1.94 ms "
            "in forward + backward) batte nn.LSTM di cuDNN, il modello che ha sostituito (1.22 ms e "
            "2.79 ms), in ogni esecuzione, pur facendo circa 1.5 volte i suoi FLOP; perde solo contro "
            "nn.RNN tanh di cuDNN, che fa circa un sesto dei FLOP dell'attenzione (e la chiamata "
            "dell'articolo ha battuto perfino quella in una delle sue due esecuzioni, in forward + backward)"
        ),
        (
            "cronometraggi su CPU, su un thread, sulla macchina che esegue il 06, FLOP contati; "
            "cronometraggi su GPU da serie di misure su una H200 con gli helper del 06, nn.LSTM tra i "
            "modelli, ogni modello cronometrato separatamente, e un'esecuzione lì del notebook 06 che mostra "
            "la variabilità da un'esecuzione all'altra; distribuiti con la loro provenienza "
            "(helpers/data/gpu)"
        ),
        "",
    ),
    "C8": (
        "la tabella delle complessità",
        (
            "giusta ma incompleta: le righe 1-3 coincidono con la Tabella 1 di Vaswani et al. 2017; mancano "
            "le righe sul costo della generazione e sulla memoria dello stato"
        ),
        (
            "i FLOP per livello, le catene di operazioni dipendenti, i livelli che collegano token lontani e "
            "il costo della generazione di un token, tutti contati (06, 08)"
        ),
        (
            "la tabella: Vaswani et al. 2017, Tabella 1; modelli ricorrenti addestrati su larga scala: Peng "
            "et al. 2023 (RWKV), Gu & Dao 2023 (Mamba)"
        ),
    ),
}
