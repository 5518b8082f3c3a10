"""Words of the statistics sheets, player cards and head to head (SPEC §6 sheets 7–9)."""

from __future__ import annotations

from ..text import Text

STATS_SHEETS: dict[str, Text] = {
    "statistics": Text("Статистика", "Statistics"),
    "tournament": Text("Статистика турнира", "Tournament statistics"),
    "cards": Text("Карточки", "Player cards"),
    "pairs": Text("Встречи", "Head to head"),
}

ROLE_WORDS: dict[str, Text] = {
    "civilian": Text("Мирный", "Civilian"),
    "sheriff": Text("Шериф", "Sheriff"),
    "mafia": Text("Мафия", "Mafia"),
    "don": Text("Дон", "Don"),
    "red": Text("Красные", "Red"),
    "black": Text("Чёрные", "Black"),
    "all": Text("Всего", "All games"),
}

OUTCOME: dict[str, Text] = {
    "win": Text("победа", "win"),
    "loss": Text("поражение", "loss"),
    "draw": Text("ничья", "draw"),
}

S: dict[str, Text] = {
    "place": Text("Место", "Place"),
    "player": Text("Игрок", "Player"),
    "overall": Text("Все игры", "All games"),
    "games": Text("Игр", "Games"),
    "wins": Text("Побед", "Wins"),
    "win_pct": Text("% побед", "Win %"),
    "additional": Text("Доп. баллы", "Additional"),
    "additional_all": Text("Доп. баллы всего", "Additional, all"),
    "killed_first_night": Text("Убит в 1-ю ночь", "Killed night 1"),
    "best_moves": Text("Лучший ход", "Best move"),
    "bm_made": Text("Сделано", "Made"),
    "bm_three": Text("3 чёрных", "3 blacks"),
    "bm_two": Text("2 чёрных", "2 blacks"),
    "bm_fewer": Text("Меньше", "Fewer"),
    "bm_points": Text("Баллы", "Points"),
    "discipline": Text("Дисциплина", "Discipline"),
    "fouls": Text("Фолы", "Fouls"),
    "fouled_out": Text("Удалён (4 фола)", "Fouled out"),
    "disqualified": Text("Дисквал.", "Disqualified"),
    "awards": Text("ЛИ судьи", "Judge's awards"),
    "bp": Text("ЛИ", "BP"),
    "bp2": Text("ЛИ2", "BP2"),
    "bpl": Text("ЛИП", "BPL"),
    "blank_is_zero": Text(
        "Пустая ячейка — это 0; проценты — доля побед в этих играх",
        "A blank cell is 0; a percentage is the share of those games won",
    ),
    "sec_tournament": Text("Турнир в цифрах", "The tournament in figures"),
    "sec_colours": Text("Победы по цвету", "Wins by colour"),
    "sec_tables": Text("По столам", "By table"),
    "sec_rounds": Text("По турам", "By round"),
    "sec_seats": Text("По номерам мест", "By seat number"),
    "sec_ended": Text(
        "Как закончились игры: фаза последнего выбывания",
        "How games ended: phase of the last departure",
    ),
    "table": Text("Стол", "Table"),
    "round": Text("Тур", "Round"),
    "seat": Text("Место", "Seat"),
    "phase": Text("Фаза", "Phase"),
    "nobody_left": Text("никто не выбыл", "nobody left"),
    "red_wins": Text("Побед красных", "Red wins"),
    "red_pct": Text("% красных", "Red %"),
    "black_wins": Text("Побед чёрных", "Black wins"),
    "black_pct": Text("% чёрных", "Black %"),
    "draws": Text("Ничьих", "Draws"),
    "draw_pct": Text("% ничьих", "Draw %"),
    "as_red": Text("Красным: игр", "As red: games"),
    "as_red_wins": Text("Красным: побед", "As red: wins"),
    "as_red_pct": Text("Красным: %", "As red: %"),
    "as_black": Text("Чёрным: игр", "As black: games"),
    "as_black_wins": Text("Чёрным: побед", "As black: wins"),
    "as_black_pct": Text("Чёрным: %", "As black: %"),
    # cards
    "card_title": Text("Место {place} — {player}", "Place {place} — {player}"),
    "card_removed": Text("Удалён с турнира — {player}", "Removed from the tournament — {player}"),
    "total": Text("Итого", "Total"),
    "win_points": Text("За победы", "Win points"),
    "role": Text("Роль", "Role"),
    "result": Text("Итог игры", "Result"),
    "win_point": Text("За победу", "Win points"),
    "best_move": Text("Лучший ход", "Best move"),
    "award": Text("ЛИ", "Award"),
    "penalty": Text("Штраф", "Penalty"),
    "penalties": Text("Штрафы", "Penalties"),
    "bm_count": Text("Лучших ходов", "Best moves"),
    "bm_points_long": Text("Баллы за лучший ход", "Best-move points"),
    # head to head
    "player_a": Text("Игрок A", "Player A"),
    "player_b": Text("Игрок B", "Player B"),
    "met": Text("Игр за одним столом", "Games at one table"),
    "together": Text("В одной команде", "Same team"),
    "together_wins": Text("Из них побед", "Won together"),
    "against": Text("Друг против друга", "Opposite teams"),
    "a_won": Text("Побед A", "A won"),
    "b_won": Text("Побед B", "B won"),
    "pair_draws": Text("Ничьих", "Draws"),
    "pairs_note": Text(
        "Пары, сыгравшие за одним столом; сначала те, кто сыграл больше игр "
        "вместе. A — игрок выше в итогах.",
        "Pairs who sat at one table, most games together first. A is the player placed higher.",
    ),
    "pairs_cut": Text(
        "Показаны {shown} пар с наибольшим числом игр из {total}.",
        "The {shown} pairs with the most games of {total} are shown.",
    ),
    # standings over time
    "over_time": Text("Итоги лидеров по ходу турнира", "The leaders' totals over time"),
    "step_round": Text("После тура", "After round"),
    "step_file": Text("После игрового вечера", "After game night"),
    "step_game": Text("После игры", "After game"),
}
