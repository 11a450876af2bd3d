"""ISO 3166-1 country codes (alpha-2 and alpha-3), for the country columns of the inputs.

SOURCE: ISO 3166-1, the officially assigned alpha-2 and alpha-3 codes (249 countries and
territories) as listed by the ISO 3166 Maintenance Agency (ISO Online Browsing Platform,
https://www.iso.org/obp/ui/#search/code/), written out here pair by pair; the alpha-3 set was
checked against the list of the same codes in the public lukes/ISO-3166-Countries-with-
Regional-Codes data (no text copied). Codes are facts of the standard; update this table when
the Maintenance Agency assigns or withdraws one.
"""

from __future__ import annotations

from dataclasses import dataclass

_PAIRS = """
AD AND AE ARE AF AFG AG ATG AI AIA AL ALB AM ARM AO AGO AQ ATA AR ARG AS ASM AT AUT AU AUS
AW ABW AX ALA AZ AZE BA BIH BB BRB BD BGD BE BEL BF BFA BG BGR BH BHR BI BDI BJ BEN BL BLM
BM BMU BN BRN BO BOL BQ BES BR BRA BS BHS BT BTN BV BVT BW BWA BY BLR BZ BLZ CA CAN CC CCK
CD COD CF CAF CG COG CH CHE CI CIV CK COK CL CHL CM CMR CN CHN CO COL CR CRI CU CUB CV CPV
CW CUW CX CXR CY CYP CZ CZE DE DEU DJ DJI DK DNK DM DMA DO DOM DZ DZA EC ECU EE EST EG EGY
EH ESH ER ERI ES ESP ET ETH FI FIN FJ FJI FK FLK FM FSM FO FRO FR FRA GA GAB GB GBR GD GRD
GE GEO GF GUF GG GGY GH GHA GI GIB GL GRL GM GMB GN GIN GP GLP GQ GNQ GR GRC GS SGS GT GTM
GU GUM GW GNB GY GUY HK HKG HM HMD HN HND HR HRV HT HTI HU HUN ID IDN IE IRL IL ISR IM IMN
IN IND IO IOT IQ IRQ IR IRN IS ISL IT ITA JE JEY JM JAM JO JOR JP JPN KE KEN KG KGZ KH KHM
KI KIR KM COM KN KNA KP PRK KR KOR KW KWT KY CYM KZ KAZ LA LAO LB LBN LC LCA LI LIE LK LKA
LR LBR LS LSO LT LTU LU LUX LV LVA LY LBY MA MAR MC MCO MD MDA ME MNE MF MAF MG MDG MH MHL
MK MKD ML MLI MM MMR MN MNG MO MAC MP MNP MQ MTQ MR MRT MS MSR MT MLT MU MUS MV MDV MW MWI
MX MEX MY MYS MZ MOZ NA NAM NC NCL NE NER NF NFK NG NGA NI NIC NL NLD NO NOR NP NPL NR NRU
NU NIU NZ NZL OM OMN PA PAN PE PER PF PYF PG PNG PH PHL PK PAK PL POL PM SPM PN PCN PR PRI
PS PSE PT PRT PW PLW PY PRY QA QAT RE REU RO ROU RS SRB RU RUS RW RWA SA SAU SB SLB SC SYC
SD SDN SE SWE SG SGP SH SHN SI SVN SJ SJM SK SVK SL SLE SM SMR SN SEN SO SOM SR SUR SS SSD
ST STP SV SLV SX SXM SY SYR SZ SWZ TC TCA TD TCD TF ATF TG TGO TH THA TJ TJK TK TKL TL TLS
TM TKM TN TUN TO TON TR TUR TT TTO TV TUV TW TWN TZ TZA UA UKR UG UGA UM UMI US USA UY URY
UZ UZB VA VAT VC VCT VE VEN VG VGB VI VIR VN VNM VU VUT WF WLF WS WSM YE YEM YT MYT ZA ZAF
ZM ZMB ZW ZWE
"""
_WORDS = _PAIRS.split()
ALPHA3_OF: dict[str, str] = dict(zip(_WORDS[::2], _WORDS[1::2]))
"""ISO 3166-1 alpha-2 -> alpha-3."""
ALPHA2_OF: dict[str, str] = {a3: a2 for a2, a3 in ALPHA3_OF.items()}
"""ISO 3166-1 alpha-3 -> alpha-2."""


@dataclass(frozen=True)
class CodeList:
    """A closed list of codes a text column holds (compared ignoring case and spaces), with the
    codes of another list that mean one of them (another form of the same standard)."""

    name: str
    """The list's name, as a reason quotes it (``ISO 3166-1 alpha-2``)."""
    codes: frozenset[str]
    other_form: dict[str, str]
    """A code of the other form -> the code it means in this list."""
    example: str

    def problem(self, column: str, value: str) -> str | None:
        """DESIGN.md Inputs — why ``value`` is not a code of this list (None when it is)."""
        v = value.strip().upper()
        if v in self.codes:
            return None
        meant = self.other_form.get(v)
        hint = f"; did you mean {meant}?" if meant else f" (e.g. {self.example})"
        return f"{column} {value.strip()} is not an {self.name} code{hint}"


ALPHA2 = CodeList("ISO 3166-1 alpha-2", frozenset(ALPHA3_OF), ALPHA2_OF, "US")
"""Two-letter country codes (Golden Knights members.csv ``country``)."""
ALPHA3 = CodeList("ISO 3166-1 alpha-3", frozenset(ALPHA2_OF), ALPHA3_OF, "IND")
"""Three-letter country codes (players.csv ``nationality``)."""
