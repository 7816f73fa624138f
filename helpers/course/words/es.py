"""Spanish: the verdicts and hints of helpers.check."""

VERDICTS = {
    "correct": "¡correcto!",
    "not_yet": "todavía no: {problem}.",
    "hint": "Pista: {hint}",
    "not_attempted": (
        "todavía sin intentar: sustituye `raise NotImplementedError` por tu código"
        " (¿atascado? `helpers.hint({name!r})`)."
    ),
    "no_answer": (
        "todavía sin intentar: sustituye `None` por tu respuesta (¿atascado? `helpers.hint({name!r})`)."
    ),
    "no_hint": "no hay pista para este: `helpers.solution({name!r})` muestra una respuesta resuelta.",
    "raised": "tu código lanzó {error}: {message}.",
    "returned_none": "tu función devolvió None (¿falta el `return`?)",
    "wants_function": "tu respuesta debe ser una función (su nombre, sin llamarla), pero se recibió {kind}",
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
    "non_normal_peak": "la entrada de la esquina de W^k domina su norma: compárala en k y en k + 1.",
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
        "resuelve sigma(b)**100 = 0.5: primero la puerta f = 0.5**(1/100), después el b con sigma(b) = f, "
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
        "cuando las entradas de W_q crecen, una sola softmax da todo su peso, a partes iguales, a las "
        "claves con la puntuación más alta. Con una sola cabeza, la puntuación de una clave es la de la "
        'palabra anterior más la gramatical: ¿qué claves de "on" puntúan más alto, y cuántas son?'
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
        "¿sobrevive el batch B a la división?"
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
