"""Spanish: the verdicts and hints of helpers.check."""

VERDICTS = {
    "correct": "¡correcto!",
    "not_yet": "todavía no: {problem}.",
    "hint": "Pista: {hint}",
    "not_attempted": (
        "todavía sin intentar: sustituye `raise NotImplementedError` por tu código"
        " (¿te atascas? `helpers.hint({name!r})`)."
    ),
    "no_answer": (
        "todavía sin intentar: sustituye `None` por tu respuesta (¿te atascas? `helpers.hint({name!r})`)."
    ),
    "no_hint": (
        "no hay pista para este ejercicio: `helpers.solution({name!r})` muestra una respuesta resuelta."
    ),
    "raised": "tu código lanzó {error}: {message}.",
    "returned_none": "tu función devolvió None (¿falta el `return`?)",
    "wants_function": "tu respuesta debe ser una función (su nombre, sin llamarla), pero se recibió {kind}",
    "not_right": "{what} es {value}, que no es correcto",
    "not_whole": "{what} es {value}, pero debe ser un número entero",
    "not_exact": (
        "{what} es {value}, cerca pero no exacto: da el valor exacto (sirve una expresión como 2/3 o "
        "math.sqrt(2))"
    ),
    "number_got_tensor": "{what} debe ser un número, pero es un tensor de dtype {dtype}",
    "number_got_array": "{what} debe ser un número, pero es un array de numpy de dtype {dtype}",
    "single_got_tensor": "{what} debe ser un único número, pero es un tensor de forma {shape}",
    "single_got_array": "{what} debe ser un único número, pero es un array de numpy de forma {shape}",
    "number_got_bool": "{what} debe ser un número, pero es el booleano {value}",
    "number_got_function": (
        "{what} debe ser un número, pero es una función: llámala, o escribe el valor directamente"
    ),
    "number_got_string": "{what} debe ser un número, pero es la cadena {value}: quita las comillas",
    "number_got_type": "{what} debe ser un número, pero es de tipo {kind}",
    "wants_tensor": "{what} debe ser un torch.Tensor, pero es de tipo {kind}",
    "wrong_shape": "{what} tiene forma {shape}, se esperaba {expected}",
    "wrong_dtype": "{what} tiene dtype {dtype}, se esperaba {expected}",
    "wrong_values": (
        "{what} tiene la forma correcta pero valores incorrectos (diferencia máxima {difference})"
    ),
    "wants_tuple": "{what} debe ser una tupla de {n} valores, pero es de tipo {kind}",
    "tuple_length": "{what} debe ser una tupla de {n} valores, pero tiene {got}",
    "your_answer": "tu respuesta",
    "answer": "respuesta",
    "cannot_draw": "No se puede dibujar: {error}",
}

HINTS = {
    "softmax_cold_limit": (
        "cuando tau -> 0, el peso e^{s/tau} de la puntuación más alta domina a todos los demás."
    ),
    "cold_softmax": (
        "cuando tau -> 0, toda puntuación por debajo del máximo recibe peso 0; las puntuaciones iguales al "
        "máximo (puede haber varias) se reparten a partes iguales el peso total de 1."
    ),
    "rnn_step": (
        "h_t = tanh(x_t W_xh^T + h_prev W_hh^T + b); las filas son los elementos del lote, así que traspón W."
    ),
    "input_projection": (
        "x @ W_xh.T funciona directamente sobre (B, N, d_in): matmul hace broadcasting sobre B y N."
    ),
    "stacked_depth": (
        "el estado de la capa 2 en el paso t espera a dos estados: el suyo en t - 1 y el de la capa 1 en t. "
        "Sigue el camino más largo hasta h_0."
    ),
    "wavefront_width": (
        "dos estados pueden calcularse a la vez solo si ninguno espera al otro: "
        "en el widget comparten el mismo número."
    ),
    "linear_rnn_jacobian": "en una RNN lineal, el jacobiano de cada paso es la misma matriz W_hh.",
    "tanh_step_jacobian": "tanh'(a) = 1 - tanh(a)^2 = 1 - h^2 escala la fila i de W_hh (no la columna i).",
    "vanishing_bound": "cada uno de los 50 jacobianos tiene norma como mucho sigma_max * max|tanh'|.",
    "non_normal_peak": "el elemento de la esquina de W^k domina su norma: compárala en k y en k + 1.",
    "sigmoid_bound": "¿cuál es la pendiente máxima de la sigmoide, s (1 - s)? Hace el papel de gamma.",
    "residual_step_jacobian": (
        "h_{k-1} pasa sin cambios, así que su jacobiano I se suma a diag(1 - u_k^2) W_hh."
    ),
    "lstm_step": (
        "el orden de las compuertas es i, f, g, o; i, f, o usan la sigmoide, g usa tanh; "
        "c_t = f*c_prev + i*g y h_t = o*tanh(c_t)."
    ),
    "lstm_below_rnn": (
        "pon la longitud de la secuencia en 500 y baja el sesgo de la forget gate paso a paso; compara dónde "
        "terminan la línea de la LSTM y la de la RNN (triángulos)."
    ),
    "forget_bias_half": (
        "resuelve sigma(b)**100 = 0.5: primero la compuerta f = 0.5**(1/100), después el b con sigma(b) = f, "
        "b = log(f / (1 - f))."
    ),
    "attention": (
        "las puntuaciones son q @ k.transpose(-2, -1), divididas por sqrt(d_k) = sqrt(q.shape[-1]); softmax "
        "sobre las claves (dim=-1), y después multiplica por v."
    ),
    "score_spread": (
        "la varianza de q.k es d_k; la dispersión (desviación típica) es la raíz cuadrada de la varianza."
    ),
    "query_strength": (
        "la puntuación de un sustantivo es fuerza * 1 / sqrt(d_k) con d_k = 4, la de cualquier otra palabra "
        "es 0; escribe la parte de la softmax que se llevan los dos sustantivos e iguálala a 0.9."
    ),
    "uniform_entropy": (
        "primero halla la entropía de pesos uniformes sobre N claves, -sum (1/N) ln(1/N);"
        " luego compara 2N con N."
    ),
    "mha_mask": (
        "construye primero la máscara en la convención de SDPA (True = puede atender): "
        "helpers.causal_mask(L) & attention.padding_mask(lengths, L), que enmascara las claves (columnas); "
        "después inviértela con ~."
    ),
    "split_heads": (
        "usa view para obtener (B, L, n_heads, hs) y después intercambia L y n_heads con transpose(1, 2)."
    ),
    "shift_rotation": (
        "el par i gira omega_i = 10000 ** (-2 * i / d_model) radianes por posición, así que k posiciones "
        "más adelante gira omega_i * k; desarrolla sin(a + b) y cos(a + b). "
        "Devuelve un tensor float32 de forma (2, 2)."
    ),
    "one_head_limit": (
        "cuando los elementos de W_q crecen, una sola softmax da todo su peso, a partes iguales, a las "
        "claves con la puntuación más alta. Con una sola cabeza, la puntuación de una clave es la de la "
        "palabra anterior más la gramatical: ¿qué claves de «on» puntúan más alto, y cuántas son?"
    ),
    "mha_parameter_count": "in_proj es (3 d, d) más 3 d sesgos; out_proj es (d, d) más d sesgos.",
    "lstm_flops": (
        "un paso de la LSTM calcula cuatro compuertas, y cada compuerta se calcula como el único paso de la "
        "RNN tanh: a partir de x_t y h_(t-1), dos productos (B, d) x (d, d) de 2 B d^2 FLOP cada uno."
    ),
    "lstm_attention_break_even": (
        "iguala los 8 B N d^2 + 4 B N^2 d de la atención al recuento de la LSTM y despeja N: "
        "el factor B N d se simplifica en ambos lados."
    ),
    "widget_flop_ratio": (
        "el título da F_att / F_RNN = (8 B N d^2 + 4 B N^2 d) / (4 B N d^2): "
        "¿sobrevive el tamaño del lote B a la división?"
    ),
    "most_frequent_token": (
        "cuenta cada token por fila (torch.nn.functional.one_hot(x, 8).sum(1)) y después toma el argmax: "
        "devuelve el primer máximo, es decir, el id más pequeño."
    ),
    "order_blind_two_tokens": (
        "sepáralo en dos casos. ¿Con qué probabilidad son iguales los dos tokens, y acierta entonces la "
        "respuesta? Si son distintos, la bolsa {a, b} no dice cuál vino primero: ¿con qué frecuencia acierta "
        "una respuesta? Suma los dos casos, ponderados."
    ),
    "forget_bias_for_100": (
        "la fracción conservada es f**T con f = sigma(b). Iguala f**100 a sigma(3)**30, despeja f "
        "y luego invierte la sigmoide: b = log(f / (1 - f))."
    ),
    "maxplus_combine": (
        "aplica (a1, b1) a h y después (a2, b2) al resultado: max(max(h + a1, b1) + a2, b2); "
        "sumar a2 entra en el max interior, y el max de tres términos es un max de dos."
    ),
    "scan_steps_million": (
        "tras s pasos cada posición guarda los últimos 2^s pasos: el scan termina cuando 2^s >= N."
    ),
    "attention_equals_lstm": (
        "iguala el recuento de una capa de atención al de una capa LSTM, "
        "8 N d^2 + 4 N^2 d = 16 N d^2, y despeja d para N = 1024."
    ),
}

PHRASES = {
    "a single row of scores": "una sola fila de puntuaciones",
    "scores of shape (3, 3, 5)": "puntuaciones de forma (3, 3, 5)",
    "every score times 1e30": "cada puntuación multiplicada por 1e30",
    "its result on a single row of scores": "su resultado con una sola fila de puntuaciones",
    "its result on scores of shape (3, 3, 5)": "su resultado con puntuaciones de forma (3, 3, 5)",
    "its result on every score times 1e30": "su resultado con cada puntuación multiplicada por 1e30",
}

SENTENCES = {
    "it fails on {what}: {error}": "falla con {what}: {error}",
    (
        "your function raised {error} on inputs that require grad (the check counts its operations with "
        "autograd): use torch operations on x"
    ): (
        "tu función lanzó {error} con entradas que requieren gradiente (la comprobación cuenta sus "
        "operaciones con autograd): usa operaciones de torch sobre x"
    ),
    (
        "your result is not connected to x by autograd (detached, or computed outside PyTorch), so the "
        "check cannot count its operations: use torch operations on x"
    ): (
        "tu resultado no está conectado a x por autograd (separado, o calculado fuera de PyTorch), así "
        "que la comprobación no puede contar sus operaciones: usa operaciones de torch sobre x"
    ),
    (
        "your function runs {short} operations on a sequence of 3 steps and {long} on one of 12: a loop "
        "over t? One matmul on the whole (B, N, d_in) tensor covers every t"
    ): (
        "tu función ejecuta {short} operaciones en una secuencia de 3 pasos y {long} en una de 12: ¿un "
        "bucle sobre t? Un solo matmul sobre todo el tensor (B, N, d_in) cubre cada t"
    ),
}

LABELS = {
    "W_q entries": "elementos de W_q",
    "batch size B": "tamaño del lote B",
    "batch size": "tamaño del lote",
    "heads": "cabezas",
    "input scale": "escala de la entrada",
    "sequence length N": "longitud de la secuencia N",
    "sequence length": "longitud de la secuencia",
    "width d": "anchura d",
    "eigenvalue λ (= ρ)": "valor propio λ (= ρ)",
    "forget bias": "sesgo de la forget gate",
    "layers": "capas",
    "off-diagonal coupling": "acoplamiento fuera de la diagonal",
    "spectral radius ρ": "radio espectral ρ",
    "temperature": "temperatura",
    "time steps N": "pasos de tiempo N",
    "training step": "paso de entrenamiento",
}

COURSE_MAP = {
    "header": [
        "notebook",
        "qué muestra",
        "afirmaciones",
    ],
    "00_start_here": "Empieza aquí",
    "01_recurrence": "Recurrencia: qué se puede ejecutar en paralelo y qué no",
    "02_bptt_gradients": "BPTT: el gradiente como producto de jacobianos",
    "03_lstm_gating": "Las compuertas de las LSTM",
    "04_attention": "Atención de producto escalar escalado",
    "05_multihead_positions": "Atención multicabeza y posiciones",
    "06_parallelism_cost": "Paralelismo y coste, medidos",
    "07_long_range_memory": "Memoria de largo alcance, entrenada en directo",
    "08_verdict": "El veredicto",
}

SHORT_LEDGER = {
    "header": [
        "",
        "el artículo dice",
        "veredicto",
        "dónde",
    ],
    "C1": (
        "una RNN no puede ejecutarse en paralelo a lo largo del tiempo",
        "cierto para la RNN tanh; una lineal, elemento a elemento, se ejecuta como un scan paralelo",
    ),
    "C2": (
        "valor propio < 1: se desvanece; > 1: explota",
        (
            "mecanismo correcto; un valor singular máximo por debajo de 1 garantiza el desvanecimiento, y "
            "el valor propio fija solo la tasa de una RNN lineal"
        ),
    ),
    "C3": (
        "las LSTM dejan fluir los gradientes, y aun así olvidan",
        "en gran parte correcta: el camino de la celda ayuda solo mientras la forget gate sigue abierta",
    ),
    "C4": (
        "cada token ve a todos los demás, todos a la vez",
        "cierto en el entrenamiento; la generación sigue siendo un token por paso",
    ),
    "C5": (
        "una trayectoria O(1) acaba con los gradientes que se desvanecen, para millones de tokens",
        (
            "correcto sobre la distancia: no hay decaimiento; erróneo sobre la escala: coste O(N^2), "
            "fallos documentados con contextos largos"
        ),
    ),
    "C6": (
        "la atención necesita posiciones: no tiene orden",
        "cierto sin máscara causal; una máscara causal por sí sola rompe la simetría",
    ),
    "C7": (
        "el fragmento que mide tiempos muestra que gana la atención",
        (
            "no en un hilo de CPU; en la GPU la atención supera a la LSTM que reemplazó, y pierde frente "
            "a la RNN tanh, mucho más barata"
        ),
    ),
    "C8": (
        "la tabla de complejidad",
        "correcta pero incompleta: faltan el coste de la generación y la memoria del estado",
    ),
}

WORKED = {  # solution()'s worked answers (its code lines as the English has them)
    "softmax_cold_limit": (
        "Divide por e^{s_max/tau}: p_max = 1 / (1 + sum_{j != max} e^{(s_j - s_max)/tau}).\n"
        "Cada exponente (s_j - s_max)/tau es negativo y tiende a -inf cuando tau -> 0: cada término -> "
        "0.\n"
        "Así que p_max -> 1 / (1 + 0) = 1 (cuando la puntuación más alta es única, como 2 aquí); las "
        "demás -> 0."
    ),
    "stacked_depth": (
        "La capa 1 es la cadena de este notebook: su estado en t espera t pasos.\n"
        "El estado de la capa 2 en t necesita el de la capa 1 en t (t pasos) y el suyo en t - 1, y "
        "luego un paso más.\n"
        "Así que está listo tras t + 1 pasos: el estado superior en t = 100 tras 101, no 200.\n"
        "Los 200 pasos en total no se ejecutan uno tras otro: la capa 2 puede empezar en cuanto la capa "
        "1 tiene\n"
        "su primer estado. (En la CPU, nn.RNN(num_layers=2) ejecuta primero la capa 1 hasta el final: "
        "su grafo\n"
        "tiene una cadena de 200, porque da a la capa 2 todas sus entradas en un solo matmul.)"
    ),
    "wavefront_width": (
        "Un estado en la capa l y el paso t está listo tras t + l - 1 pasos.\n"
        "Los estados que comparten ese número no esperan a ninguno de los otros: pueden ejecutarse uno "
        "al lado del otro.\n"
        "Cada capa tiene un solo estado con un número dado, así que como mucho 3 lo comparten (con 8 "
        "pasos >= 3 capas).\n"
        "Apilar capas da al hardware paralelo un estado por capa para calcular a la vez, nunca más."
    ),
    "vanishing_bound": (
        "El jacobiano de un paso es diag(tanh'(a_t)) W_hh: su norma es como mucho max|tanh'| * 0.9 = "
        "0.9.\n"
        "La norma de un producto es como mucho el producto de las normas: 50 factores, cada uno <= 0.9.\n"
        "Así que ||dh_50/dh_0|| <= 0.9**50 = 0.005154, sean cuales sean las entradas."
    ),
    "non_normal_peak": (
        "W^k = [[0.85^k, 5 k 0.85^(k-1)], [0, 0.85^k]], y el elemento de la esquina domina su norma.\n"
        "De k a k + 1 ese elemento se multiplica por 0.85 (k + 1) / k,\n"
        "que es mayor que 1 mientras k < 0.85 / 0.15 = 5.67.\n"
        "Así que crece hasta k = 6 y luego decrece: la joroba tiene su pico en k = 6."
    ),
    "sigmoid_bound": (
        "El jacobiano de un paso es diag(sigmoid'(z_k)) W_hh, y sigmoid' = s (1 - s) <= 1/4.\n"
        "Así que cada factor tiene norma como mucho 3 / 4 < 1: el desvanecimiento está garantizado, "
        "aunque sigma_max = 3 > 1.\n"
        "Veinte factores: ||dh_20/dh_0|| <= (3/4)**20 = 0.003171."
    ),
    "lstm_below_rnn": (
        "Predicho solo por el camino de la celda: se multiplica por sigma(b_f) en cada paso, la RNN por "
        "defecto por\n"
        "unos 0.455, y sigma(b_f) < 0.455 para todo b_f <= -0.5, así que la LSTM debería caer por "
        "debajo de la RNN\n"
        "ya en -0.5. El widget en T = 500: en -0.5 la LSTM sigue muy por encima de la RNN (unos 2e-156\n"
        "frente a 6e-171); en -1 cae por debajo (unos 2e-208). El sesgo más bajo aún por encima es "
        "-0.5: los caminos\n"
        "a través de h y W_hh mantienen el gradiente de la LSTM por encima de lo que predicen solo sus "
        "forget gates."
    ),
    "forget_bias_half": (
        "Cada paso conserva f = sigma(b) del camino de la celda, así que 100 pasos conservan f**100 = "
        "1/2:\n"
        "f = 0.5**0.01 = 0.99309. sigma(b) = f  <=>  b = log(f / (1 - f)) = 4.968:\n"
        "la compuerta debe empezar casi del todo abierta."
    ),
    "one_head_limit": (
        "Con una sola cabeza, la puntuación de una clave es su puntuación de palabra anterior más su "
        "puntuación gramatical.\n"
        "«on» (una preposición en la posición 3) recibe una unidad de «sat» (su palabra anterior) y una "
        "de cada uno de «cat» y «mat» (sustantivos).\n"
        "Tres claves empatan en la puntuación más alta; cuando los elementos de W_q crecen, la softmax "
        "reparte su peso de 1 a partes iguales entre ellas: 1/3 = 0.3333 cada una."
    ),
    "mha_parameter_count": (
        "in_proj: 3 d x d pesos + 3 d sesgos; out_proj: d x d pesos + d sesgos.\n"
        "Las 8 cabezas comparten estas matrices (cada una lee d / 8 columnas): ningún parámetro extra.\n"
        "Con d = 64: 4*64*64 + 4*64 = 16384 + 256 = 16640."
    ),
    "score_spread": (
        "q.k = q_1 k_1 + ... + q_256 k_256: 256 términos independientes de varianza 1.\n"
        "Las varianzas se suman: Var(q.k) = d_k = 256.\n"
        "La dispersión es su raíz cuadrada: sqrt(256) = 16. Tras dividir por sqrt(d_k) sería 1."
    ),
    "uniform_entropy": (
        "Uniforme sobre N claves: p_j = 1/N, así que H(N) = -N * (1/N) * ln(1/N) = ln N.\n"
        "H(2N) - H(N) = ln 2N - ln N = ln 2, sea cual sea N.\n"
        "math.log(2) = 0.6931 nats (1 bit)."
    ),
    "query_strength": (
        "Los sustantivos puntúan c / sqrt(4) = c / 2; las otras 4 palabras, 0.\n"
        "Su fracción: 2 e^{c/2} / (2 e^{c/2} + 4) = 0.9, así que 0.2 e^{c/2} = 3.6 y e^{c/2} = 18.\n"
        "c = 2 ln 18 = 5.781 (sin sqrt(d_k) sería ln 18)."
    ),
    "lstm_flops": (
        "Cada uno de los N pasos calcula cuatro compuertas (input, forget, candidato g, output),\n"
        "cada una a partir de x_t W^T y h W^T: ocho matmul (B, d) x (d, d) por paso, de 2 B d^2 FLOP "
        "cada uno;\n"
        "los sesgos y las no linealidades no se cuentan.\n"
        "def lstm_flops(B, N, d): return N * 8 * (2 * B * d**2)   # = 16 B N d^2, four times the tanh "
        "RNN\n"
        "por ejemplo B, N, d = 2, 9, 16: 16 * 2 * 9 * 16**2 = 73728."
    ),
    "lstm_attention_break_even": (
        "La LSTM hace 16 B N d^2 (cuatro compuertas, dos productos cada una), la atención 8 B N d^2 + 4 "
        "B N^2 d.\n"
        "Son iguales cuando 16 d = 8 d + 4 N, es decir N = 2 d = 256 para d = 128.\n"
        "Por encima de N = 256 la atención hace más FLOP que la LSTM; en N = 512, 1.5 veces más."
    ),
    "widget_flop_ratio": (
        "F_att / F_RNN = (8 B N d^2 + 4 B N^2 d) / (4 B N d^2) = 2 + N / d: el lote se cancela.\n"
        "En N = 256, d = 128: 2 + 2 = 4, con lote 1 igual que con lote 32."
    ),
    "order_blind_two_tokens": (
        "Se sabe que la consulta x_2 es la última; x_0 es uno de los dos tokens anteriores.\n"
        "Son iguales con probabilidad 1/8: la bolsa {a, a} dice el primer token.\n"
        "Son distintos con probabilidad 7/8: {a, b} podía empezar con cualquiera de los dos tokens,\n"
        "así que una conjetura acierta la mitad de las veces.\n"
        "Exactitud = 1/8 * 1 + 7/8 * 1/2 = 2/16 + 7/16 = 9/16 = 0.5625."
    ),
    "forget_bias_for_100": (
        "sigma(b)**100 = sigma(3)**30, así que f = sigma(b) = sigma(3)**0.3 = 0.98553.\n"
        "b = log(f / (1 - f)) = log(0.98553 / 0.01447) = 4.2211.\n"
        "Un sesgo unos 1.2 por encima de +3 permite más del triple de retardo."
    ),
    "scan_steps_million": (
        "El paso s combina a distancia 2^(s-1): tras s pasos, la posición t contiene los últimos 2^s "
        "pasos.\n"
        "El scan termina cuando 2^s >= N = 1 000 000: 2^19 = 524 288 se queda corto, 2^20 = "
        "1 048 576 basta.\n"
        "Así que ceil(log2 10^6) = 20 pasos, frente a 1 000 000 del bucle."
    ),
    "attention_equals_lstm": (
        "8 N d^2 + 4 N^2 d = 16 N d^2 da 4 N^2 d = 8 N d^2, así que N = 2 d.\n"
        "Con N = 1024 es d = 512: la etiqueta del widget dice entonces attention = N/d + 2 = 4 x RNN, "
        "los 16 N d^2 / 4 N d^2 de la LSTM."
    ),
}

# 08's claims ledger (ledger.claims_ledger): the header, the word for no literature, and per claim
# (said, verdict, measured, literature)
CLAIMS_LEDGER = {
    "header": ["", "el artículo dice", "veredicto honesto", "medido aquí", "de la literatura", "dónde"],
    "none": "ninguna",
    "C1": (
        "h_t necesita h_{t-1}, así que una RNN no se puede paralelizar a lo largo del tiempo",
        (
            "cierto para la RNN tanh: no se conoce ningún atajo exacto, solo métodos iterativos con muchas "
            "veces el trabajo (unas 60-400 veces los FLOP de los matmul del bucle en 01, d_h = 4, según W_hh "
            "y el scan; más para estados más anchos); la proyección de la entrada es un solo matmul, y una "
            "recurrencia lineal, elemento a elemento, se paraleliza (un scan, una convolución, bloques)"
        ),
        (
            "la profundidad N de la cadena contada en el grafo de nn.RNN, y su tiempo frente a los mismos "
            "FLOP en una sola llamada, de B = 1 a 64; las iteraciones de Newton contadas (01); un scan, una "
            "convolución y bloques iguales al bucle (08)"
        ),
        (
            "métodos iterativos para recurrencias no lineales: Lim et al. 2024; el scan (Hillis & Steele "
            "1986; Blelloch 1990; Martin & Cundy 2018); qué modelo lo calcula y cómo: Gu et al. 2022 (S4), "
            "Peng et al. 2023 (RWKV), Gu & Dao 2023 (Mamba), Dao & Gu 2024 (Mamba-2), Feng et al. 2024 "
            "(minGRU)"
        ),
    ),
    "C2": (
        (
            "los gradientes de la BPTT se desvanecen si el valor propio más grande de W_hh es < 1, y "
            "explotan si es > 1"
        ),
        (
            "el mecanismo es correcto, la condición imprecisa: que el mayor valor singular por la cota de "
            "tanh' quede por debajo de 1 es una condición suficiente para que el gradiente se desvanezca "
            "(Pascanu et al. 2013), y que quede por encima de 1 es necesario, no suficiente, para que "
            "explote; la tasa exacta a largo plazo es el radio espectral rho para una RNN lineal y el mayor "
            "exponente de Lyapunov para una RNN tanh, en la que, con entradas de tamaño unidad, la "
            "saturación "
            "de la tanh hace que el gradiente se desvanezca incluso con un valor propio de 1.1"
        ),
        (
            "las normas del gradiente frente al radio espectral, W_hh ortogonal y gaussiana, la joroba de "
            "las matrices no normales, la saturación de la tanh y la tasa a largo plazo de la RNN tanh, "
            "comprobados con autograd (02)"
        ),
        "la condición suficiente sobre el mayor valor singular: Pascanu, Mikolov & Bengio 2013",
    ),
    "C3": (
        (
            "las compuertas de la LSTM dejan fluir los gradientes, y aun así la LSTM olvida más allá de unos "
            "cientos de tokens"
        ),
        (
            "en gran parte correcta: el camino de la celda ayuda solo mientras la forget gate sigue abierta "
            "(sesgo de la forget gate de 1 o más, aproximadamente), y con un presupuesto de entrenamiento "
            "pequeño la LSTM fracasa al optimizar, no al recordar; el flujo del gradiente y la memoria de "
            "tamaño fijo son dos fallos distintos"
        ),
        (
            "el gradiente por todos los caminos frente al sesgo de la forget gate, con el producto de las "
            "forget gates como guía, en la inicialización (03); el recuerdo tras T = 10, 30, 100 pasos en "
            "200 pasos de Adam, en una tarea sintética (07); lo máximo que puede guardar un estado de tamaño "
            "fijo con los tamaños de AWD-LSTM, de 11\u202f503 a 13\u202f004 tokens, muy por encima de los "
            "200 que "
            "usan: la capacidad no los explica (03)"
        ),
        (
            "«unos cientos de tokens»: Khandelwal et al. 2018 (los modelos de lenguaje LSTM usan unos 200 "
            "tokens de contexto); retardos de 1000 pasos aprendidos con entrenamientos largos: Hochreiter & "
            "Schmidhuber 1997"
        ),
    ),
    "C4": (
        "la autoatención permite que cada token interactúe con todos los demás, todos a la vez",
        "cierto en el entrenamiento y la codificación; la generación sigue siendo un token por paso",
        (
            "un solo matmul da todas las N x N puntuaciones; las salidas causales calculadas posición a "
            "posición son iguales a las calculadas todas a la vez (04)"
        ),
        "",
    ),
    "C5": (
        (
            "una longitud de trayectoria O(1) elimina los gradientes que se desvanecen; millones de tokens, "
            "sin esfuerzo"
        ),
        (
            "correcto sobre la distancia, erróneo sobre la escala: con posiciones, el camino de longitud 1 "
            "da un gradiente que no decae con la distancia, y ayuda a recordar; pero el coste es O(N^2) y "
            "los contextos largos fallan en la práctica. El ~1/N de la atención difusa es la derivada de una "
            "media: frena el aprendizaje de adónde atender, y no es un gradiente que se desvanece en el "
            "sentido de Bengio et al. 1994 o Pascanu et al. 2013"
        ),
        (
            "el gradiente frente a la distancia y su parte 1/N hasta N = 4096 (04); el recuerdo a T = 100 "
            "(07); los FLOP O(N^2 d) y una caché O(N d), contados (08)"
        ),
        (
            "los contextos largos fallan en la práctica: Liu et al. 2024 (lost in the middle), Hsieh et al. "
            "2024 (RULER); nada aquí se ejecuta con millones de tokens"
        ),
    ),
    "C6": (
        "las codificaciones posicionales son necesarias porque la atención no tiene orden",
        (
            "cierto sin máscara causal: la autoatención es entonces equivariante por permutaciones "
            "(exactamente, salvo el redondeo de coma flotante), y no puede aprender una tarea en la que solo "
            "importa el orden; una máscara causal por sí sola rompe la simetría"
        ),
        (
            "la igualdad MHA(Px) = P MHA(x) salvo redondeo, rota por la codificación o por una máscara "
            "causal (05); sin "
            "posiciones, acotada por el techo ciego al orden, cerca de él a T = 10 y 30 (07)"
        ),
        (
            "los modelos de lenguaje sin codificación posicional aprenden igualmente las posiciones, lo que "
            "los autores atribuyen a la máscara causal: Haviv et al. 2022"
        ),
    ),
    "C7": (
        "el fragmento que mide tiempos muestra que la atención supera al bucle de la RNN",
        (
            "el artículo lo da a entender, pero el fragmento no imprime ningún número. No en un hilo de CPU "
            "con lote 32 (todas las mediciones de tiempo en CPU de 06 se ejecutan con THREADS = 1): el "
            "fragmento mide una sola vez, en frío, y la atención hace N/d + 2 veces el trabajo de la RNN "
            "tanh. En una GPU H200, con B = 32, N = 512, d = 128, fp32, la atención (0.37-0.45 ms en "
            "forward, "
            "1.57-1.94 ms en forward + backward) supera a la nn.LSTM de cuDNN, el modelo al "
            "que reemplazó (1.22 ms y 2.79 ms), en todas las ejecuciones, aun haciendo unas 1.5 veces sus "
            "FLOP; solo pierde frente a la nn.RNN tanh de cuDNN, que hace más o menos una sexta parte de los "
            "FLOP de la atención (y la llamada del artículo superó incluso a esta en una de sus dos "
            "ejecuciones, en forward + backward)"
        ),
        (
            "mediciones de tiempo en CPU, en un hilo, en la máquina que ejecuta 06, con los FLOP contados; "
            "mediciones de tiempo en GPU de barridos en una H200 con las herramientas de 06, nn.LSTM entre "
            "los modelos, cada modelo medido por separado, y una ejecución allí del notebook 06 que muestra "
            "la variación de una ejecución a otra; se distribuyen con su procedencia (helpers/data/gpu)"
        ),
        "",
    ),
    "C8": (
        "la tabla de complejidad",
        (
            "correcta pero incompleta: las filas 1-3 coinciden con la tabla 1 de Vaswani et al. 2017; faltan "
            "las filas sobre el coste de la generación y la memoria del estado"
        ),
        (
            "los FLOP por capa, las cadenas de operaciones dependientes, las capas que conectan tokens "
            "lejanos y el coste de generar un token, todo contado (06, 08)"
        ),
        (
            "la tabla: Vaswani et al. 2017, tabla 1; modelos recurrentes entrenados a gran escala: Peng et "
            "al. 2023 (RWKV), Gu & Dao 2023 (Mamba)"
        ),
    ),
}
